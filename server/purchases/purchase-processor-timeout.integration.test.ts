/**
 * The payment processor timing out on a purchase's hold (the sandbox card 4000 0000 0000 0408: the
 * hold is made, its answer lost): POST /purchases answers 202 `processing`; a replay of the same
 * key answers the same; the purchase resolves later, either way, with exactly one hold and no
 * charge: the bank's late "authorized" makes it held (reconciliation afterwards leaves it held),
 * or with no late answer reconciliation releases the hold and refuses it (bank_no_answer).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { agentWithPerson, buy, directItem, getPurchase, quoteOf } from "../testing/agent-purchases";
import { sandboxLedger } from "../testing/purchase-ledger";
import { callRoute } from "../testing/rest";
import { reconcilePurchases } from "./reconcile-purchases";
import { operationHandler } from "@/server/edges/rest/rest-router";

const resolveRoute = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/resolve");

const timedOutPurchase = async () => {
  const { token } = await agentWithPerson({ card: testCards.answersLate });
  const quote = await quoteOf(token, [(await directItem()).id]);
  const key = randomUUID();
  const first = await buy(token, quote.quote_id, key);
  expect(first.status).toBe(202);
  expect(first.body).toMatchObject({ status: "processing", order_number: null });
  const replay = await buy(token, quote.quote_id, key);
  expect([replay.status, replay.text, replay.headers.get("idempotent-replayed")]).toEqual([
    202,
    first.text,
    "true",
  ]);
  const id = first.body.purchase_id as string;
  expect(await sandboxLedger(id)).toMatchObject({ status: "authorized", holds: 1, captures: 0 });
  return { token, id, quote };
};

const reconcileLater = (minutes: number) =>
  reconcilePurchases(db(), {
    now: new Date(Date.now() + minutes * 60_000),
    provider: sandboxProvider(),
  });

describe("the payment processor timing out on a purchase", () => {
  it("resolves held when the bank's answer comes late; reconciliation then leaves it held; one hold, no charge", async () => {
    const { token, id, quote } = await timedOutPurchase();
    const resolved = await callRoute(resolveRoute, {
      path: `/sandbox/purchases/${id}/resolve`,
      token,
      body: { outcome: "authorized" },
      params: { purchase_id: id },
    });
    expect(resolved.status).toBe(200);
    expect((await getPurchase(token, id)).body).toMatchObject({
      status: "held",
      order_number: expect.any(String),
    });
    await reconcileLater(2);
    await reconcileLater(10);
    expect((await getPurchase(token, id)).body.status).toBe("held");
    expect(await sandboxLedger(id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    expect((await buy(token, quote.quote_id)).body.error.code).toBe("quote_already_purchased");
  });

  it("with no late answer, reconciliation releases the hold once and refuses the purchase; never lost, never charged", async () => {
    const { token, id } = await timedOutPurchase();
    await reconcileLater(2);
    await reconcileLater(10);
    expect((await getPurchase(token, id)).body).toMatchObject({
      status: "refused",
      error: { code: "bank_no_answer" },
    });
    expect(await sandboxLedger(id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
  });
});
