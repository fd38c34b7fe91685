/**
 * The purge: ended grants, spent codes, expired access tokens, idempotency records past their
 * 24-hour replay window, long-expired quotes no checkout references, and old sent or abandoned
 * emails, deleted in batches; everything still inside its retention (or still usable) stays.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { sha256 } from "../../core/ids";
import { db } from "../db";
import { linkedPerson } from "../../testing/oauth";
import { purgeExpiredRecords as purge } from "./purge";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";

const day = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
let partner: Awaited<ReturnType<typeof createPartner>>;
let storeId: number;

beforeAll(async () => {
  partner = await createPartner();
  storeId = (await createStore()).id;
});

const newQuote = async () =>
  (await createQuoteVia(await partner.token(), [{ item_id: (await createItem({ storeId })).id }]))
    .body.quote_id as string;

describe("purge of expired records", () => {
  it("deletes a grant revoked over 30 days ago (with its tokens) and spent codes; keeps a live grant", async () => {
    const live = await linkedPerson();
    const ended = await linkedPerson();
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { personId: ended.person.id } });
    await db().oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: ago(31 * day) } });
    await db().authorizationCode.updateMany({
      where: { grant: { personId: live.person.id } },
      data: { consumedAt: ago(2 * day) },
    });

    const result = await purge({ db: db(), now: new Date() });
    expect(result).toMatchObject({ grants: 1 });
    expect(await db().oAuthGrant.count({ where: { id: grant.id } })).toBe(0);
    expect(await db().accessToken.count({ where: { grantId: grant.id } })).toBe(0);
    expect(
      await db().authorizationCode.count({ where: { grant: { personId: live.person.id } } }),
    ).toBe(0);
    // A used refresh token stays for reuse detection; the live link still works.
    const used = await db().refreshToken.findFirstOrThrow({
      where: { grant: { personId: live.person.id } },
    });
    await db().refreshToken.update({ where: { id: used.id }, data: { usedAt: ago(2 * day) } });
    await purge({ db: db(), now: new Date() });
    expect(await db().refreshToken.count({ where: { id: used.id } })).toBe(1);
    await db().refreshToken.update({ where: { id: used.id }, data: { usedAt: null } });
    expect(
      await db().refreshToken.count({ where: { tokenHash: sha256(live.tokens.refresh_token) } }),
    ).toBe(1);
    expect((await live.refresh(live.tokens.refresh_token)).status).toBe(200);
  });

  it("deletes client-credentials tokens a day after expiry; keeps live ones", async () => {
    const [old, live] = [await partner.token(), await partner.token()];
    await db().accessToken.update({
      where: { tokenHash: sha256(old) },
      data: { expiresAt: ago(2 * day) },
    });
    await purge({ db: db(), now: new Date() });
    expect(await db().accessToken.count({ where: { tokenHash: sha256(old) } })).toBe(0);
    expect(await db().accessToken.count({ where: { tokenHash: sha256(live) } })).toBe(1);
  });

  it("deletes idempotency records past the 24-hour replay window, in batches, and keeps recent ones", async () => {
    const stale = Array.from({ length: 2_500 }, () => ({
      scope: "cli_purge",
      operation: "checkout.sessions.create",
      key: randomUUID(),
      requestHash: "x",
      createdAt: ago(25 * 3_600_000),
      expiresAt: ago(3_600_000),
    }));
    await db().idempotencyRecord.createMany({ data: stale });
    await createCheckoutVia(await partner.token(), {
      quote_id: await newQuote(),
      email: "a@example.ca",
    });
    await purge({ db: db(), now: new Date() });
    expect(await db().idempotencyRecord.count({ where: { scope: "cli_purge" } })).toBe(0);
    expect(await db().idempotencyRecord.count({ where: { scope: partner.client.id } })).toBe(1);
  });

  it("deletes quotes expired over 7 days that no checkout references", async () => {
    const [unused, used, recent] = [await newQuote(), await newQuote(), await newQuote()];
    await createCheckoutVia(await partner.token(), { quote_id: used, email: "a@example.ca" });
    await db().quote.updateMany({
      where: { id: { in: [unused, used] } },
      data: { expiresAt: ago(8 * day) },
    });
    await db().quote.update({ where: { id: recent }, data: { expiresAt: ago(3_600_000) } });
    await purge({ db: db(), now: new Date() });
    expect(
      (
        await db().quote.findMany({
          where: { id: { in: [unused, used, recent] } },
          select: { id: true },
        })
      )
        .map((quote) => quote.id)
        .sort(),
    ).toEqual([used, recent].sort());
  });

  it("deletes sent and abandoned emails after 30 days; keeps pending and recent ones", async () => {
    const email = (id: string, status: "sent" | "failed" | "pending", createdAt: Date) => ({
      id,
      to: "old@example.ca",
      template: "verify-email",
      props: {},
      status,
      createdAt,
      sentAt: status === "sent" ? createdAt : null,
    });
    await db().emailMessage.createMany({
      data: [
        email("eml_purge_sent", "sent", ago(31 * day)),
        email("eml_purge_failed", "failed", ago(31 * day)),
        email("eml_purge_pending", "pending", ago(31 * day)),
        email("eml_purge_recent", "sent", ago(day)),
      ],
    });
    await purge({ db: db(), now: new Date() });
    expect(
      (
        await db().emailMessage.findMany({
          where: { id: { startsWith: "eml_purge_" } },
          select: { id: true },
        })
      )
        .map((row) => row.id)
        .sort(),
    ).toEqual(["eml_purge_pending", "eml_purge_recent"]);
  });

  it("deletes webhook events and their deliveries 30 days after they were recorded, unless a delivery is still pending", async () => {
    const endpoint = await db().webhookEndpoint.create({
      data: {
        id: "we_purge",
        clientId: "cli_purge",
        url: "https://partner.example/hooks",
        eventTypes: ["checkout.paid"],
        secret: "whsec_x",
      },
    });
    const event = (id: string, createdAt: Date, status: "delivered" | "pending") => [
      db().webhookEvent.create({
        data: {
          id,
          clientId: "cli_purge",
          type: "checkout.paid",
          objectId: "chk_x",
          payload: {},
          createdAt,
        },
      }),
      db().webhookDelivery.create({
        data: {
          id: `whd_${id}`,
          eventId: id,
          endpointId: endpoint.id,
          status,
          nextAttemptAt: createdAt,
          createdAt,
        },
      }),
    ];
    for (const [create, deliver] of [
      event("msg_purge_old", ago(31 * day), "delivered"),
      event("msg_purge_pending", ago(31 * day), "pending"),
      event("msg_purge_recent", ago(day), "delivered"),
    ]) {
      await create;
      await deliver;
    }
    await purge({ db: db(), now: new Date() });
    expect(
      (
        await db().webhookEvent.findMany({
          where: { id: { startsWith: "msg_purge_" } },
          select: { id: true },
        })
      )
        .map((row) => row.id)
        .sort(),
    ).toEqual(["msg_purge_pending", "msg_purge_recent"]);
    expect(await db().webhookDelivery.count({ where: { eventId: "msg_purge_old" } })).toBe(0);
  });
});
