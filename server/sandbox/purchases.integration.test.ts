/**
 * The purchase sandbox helpers through their REST handlers: advance charges a held purchase now
 * (paid, or cancelled item_sold), resolve gives the late card's answer (held with the copy email,
 * or requires_person); only the client's own purchases, only with purchase:write.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, createLinkedPerson } from "../../prisma/factories";
import { createHeldPurchase, createPurchase } from "../../prisma/factories/purchases";
import { issueAccessToken } from "../auth/tokens";
import { openApiDocument } from "../edges/rest/openapi";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { testCards } from "../payments/sandbox-cards";
import { partnerCaller } from "../testing/callers";
import { failureOf as failure } from "../testing/oauth";
import { sandboxLedger } from "../testing/purchase-ledger";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";
import { useProductionEnv } from "../testing/production-env";

const advanceRoute = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/advance");
const resolveRoute = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/resolve");

const tokenOf = async (
  purchase: { clientId: string; personId: string },
  scopes = ["purchase:write"],
) =>
  (
    await issueAccessToken(db(), {
      clientId: purchase.clientId,
      personId: purchase.personId,
      scopes,
      now: new Date(),
    })
  ).token;

const advance = (id: string, token: string) =>
  callRoute(advanceRoute, {
    method: "POST",
    path: `/sandbox/purchases/${id}/advance`,
    token,
    params: { purchase_id: id },
  });
const resolve = (id: string, token: string, body: unknown) =>
  callRoute(resolveRoute, {
    path: `/sandbox/purchases/${id}/resolve`,
    token,
    body,
    params: { purchase_id: id },
  });

describe("POST /sandbox/purchases/{purchase_id}/advance", () => {
  it("charges a held purchase now: paid, charges_at null, captured once; a second advance answers it as it is", async () => {
    const { purchase } = await createHeldPurchase();
    const token = await tokenOf(purchase);
    const response = await advance(purchase.id, token);
    expect(response.status).toBe(200);
    // The reference's Purchase, as GET /purchases/{id} answers it.
    expect(await response.json()).toEqual({
      purchase_id: purchase.id,
      status: "paid",
      order_number: purchase.orderNumber,
      fulfilment: "processing",
      totals: { grand_total: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: "CAD" } },
      cancel_until: expect.any(String),
      charges_at: null,
      created_at: expect.any(String),
      checkout: null,
      error: null,
    });
    expect(await (await advance(purchase.id, token)).json()).toMatchObject({ status: "paid" });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "captured",
      holds: 1,
      captures: 1,
      releases: 0,
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-closed:${purchase.id}` } }),
    ).toBe(1);
  });

  it("an item sold elsewhere: cancelled with item_sold, the hold released, nothing captured", async () => {
    const { purchase, item } = await createHeldPurchase();
    await db().item.update({ where: { id: item.id }, data: { status: "sold" } });
    expect(await (await advance(purchase.id, await tokenOf(purchase))).json()).toMatchObject({
      status: "cancelled",
      charges_at: null,
      error: { code: "item_sold" },
    });
    expect(await sandboxLedger(purchase.id)).toMatchObject({
      status: "voided",
      captures: 0,
      releases: 1,
    });
  });

  it("another client's or another person's purchase is not_found and stays held; a token without purchase:write is 403", async () => {
    const { purchase } = await createHeldPurchase();
    const stranger = await createAgent();
    expect(
      (
        await advance(
          purchase.id,
          await tokenOf({ clientId: stranger.id, personId: purchase.personId }),
        )
      ).status,
    ).toBe(404);
    const { person: otherPerson } = await createLinkedPerson();
    expect(
      (
        await advance(
          purchase.id,
          await tokenOf({ clientId: purchase.clientId, personId: otherPerson.id }),
        )
      ).status,
    ).toBe(404);
    expect((await advance(purchase.id, await tokenOf(purchase, ["checkout:write"]))).status).toBe(
      403,
    );
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "held",
    );
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", captures: 0 });
  });
});

describe("POST /sandbox/purchases/{purchase_id}/resolve", () => {
  it("authorized: the late card's processing purchase becomes held with charges_at 24 h on and the copy email, one hold", async () => {
    const { purchase } = await createPurchase({ card: testCards.answersLate });
    expect(purchase.status).toBe("processing");
    const before = Date.now();
    const response = await resolve(purchase.id, await tokenOf(purchase), { outcome: "authorized" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      purchase_id: purchase.id,
      status: "held",
      order_number: expect.any(String),
      error: null,
    });
    expect(Date.parse(body.charges_at) - before).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(body.cancel_until).toBe(body.charges_at);
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-copy:${purchase.id}` } }),
    ).toBe(1);
    expect(
      await (await resolve(purchase.id, await tokenOf(purchase), { outcome: "declined" })).json(),
    ).toMatchObject({ status: "held" });
  });

  it("declined: requires_person with card_declined, nothing held or charged", async () => {
    const { purchase } = await createPurchase({ card: testCards.answersLate });
    expect(
      await (await resolve(purchase.id, await tokenOf(purchase), { outcome: "declined" })).json(),
    ).toMatchObject({
      status: "requires_person",
      charges_at: null,
      error: { code: "card_declined" },
    });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "declined",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    expect(
      (await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } })).status,
    ).toBe("declined");
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `purchase-copy:${purchase.id}` } }),
    ).toBe(0);
  });

  it("refuses an unknown outcome (422) and another client's purchase (404)", async () => {
    const { purchase } = await createPurchase({ card: testCards.answersLate });
    const refused = await resolve(purchase.id, await tokenOf(purchase), { outcome: "maybe" });
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.fields).toHaveProperty("outcome");
    const stranger = await createAgent();
    expect(
      (
        await resolve(
          purchase.id,
          await tokenOf({ clientId: stranger.id, personId: purchase.personId }),
          { outcome: "authorized" },
        )
      ).status,
    ).toBe(404);
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchase.id } })).status).toBe(
      "processing",
    );
  });
});

describe("outside the sandbox", () => {
  afterEach(() => {
    delete process.env.SERVICE_ENV;
    delete process.env.APP_SECRET;
    resetEnv();
  });

  it("advance and resolve are not found in production, and change nothing", async () => {
    const { purchase } = await createHeldPurchase();
    useProductionEnv({ APP_SECRET: "y".repeat(40) });
    const caller = partnerCaller(["purchase:write"], purchase.clientId, purchase.personId);
    expect((await failure(caller.sandbox.advancePurchase({ purchase_id: purchase.id }))).code).toBe(
      "not_found",
    );
    expect(
      (
        await failure(
          caller.sandbox.resolvePurchase({ purchase_id: purchase.id, outcome: "declined" }),
        )
      ).code,
    ).toBe("not_found");
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", captures: 0 });
  });
});

describe("the purchase sandbox helpers in the OpenAPI document", () => {
  it("document advance and resolve with purchase:write, the outcome body and 404", () => {
    const paths = openApiDocument().paths!;
    const advanceOperation = paths["/sandbox/purchases/{purchase_id}/advance"]!.post!;
    const resolveOperation = paths["/sandbox/purchases/{purchase_id}/resolve"]!.post!;
    expect(advanceOperation.security).toEqual([{ oauth2: ["purchase:write"] }]);
    expect(Object.keys(resolveOperation.responses!)).toEqual(
      expect.arrayContaining(["200", "404", "422"]),
    );
    expect(JSON.stringify(resolveOperation.requestBody)).toContain("declined");
  });
});
