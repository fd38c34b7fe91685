/**
 * Disputes (docs/adr/0109): in the sandbox, a dispute opened on a two-store checkout holds each
 * store's share back (reversed from its transfer) and is listed for the operator with its evidence
 * date; lost, the shares stay back; won, they are transferred again. With Stripe, the dispute's
 * events (created, updated, closed: each state asked of Stripe) are recorded once however often
 * they come, and the day reconciles clean with the dispute's balance transactions.
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { sqlTransaction } from "../platform/sql";
import { closeLedgerDispute, openLedgerDispute, paymentProvider } from "../payments";
import { stripeProvider } from "../payments/stripe";
import { settleStoreShares } from "../payouts";
import { reconcileDay } from "../reconciliation";
import { handleStripeWebhook } from "../edges/stripe-webhook/endpoint";
import { payCheckout, payCheckoutAtStripe } from "../testing/paid-orders";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { recordDispute } from "./record-dispute";
import { listOpenDisputes } from "./store";

const secret = `whsec_${randomBytes(24).toString("hex")}`;
let token: string;
let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
const stripeSide = () =>
  stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url, maxNetworkRetries: 0 });

beforeAll(async () => {
  token = await (await createPartner()).token();
  stripe = await startStripeShapedServer();
});
afterAll(() => stripe.close());

const settle = (provider = paymentProvider()) =>
  settleStoreShares(db(), { now: new Date(), provider });
const ledgerOf = (paymentId: string) =>
  db().storeLedgerEntry.findMany({ where: { paymentId }, orderBy: [{ createdAt: "asc" }] });
const sumOf = (rows: { netCents: number; feeCents: number }[]) =>
  rows.reduce((sum, row) => sum + row.netCents + row.feeCents, 0);

/** The sandbox's cardholder disputes, and its bank decides: each followed by what the webhook would do. */
const sandboxDispute = async (processorPaymentId: string, amountCents: number) => {
  const opened = await sqlTransaction((sql) =>
    openLedgerDispute(sql, {
      paymentId: processorPaymentId,
      amountCents,
      reason: "fraudulent",
      now: new Date(),
    }),
  );
  const outcome = await recordDispute(db(), paymentProvider(), {
    processorDisputeId: opened.id,
    now: new Date(),
  });
  return { id: opened.id, outcome };
};
const sandboxDecide = async (id: string, outcome: "won" | "lost") => {
  await sqlTransaction((sql) => closeLedgerDispute(sql, { id, outcome, now: new Date() }));
  return recordDispute(db(), paymentProvider(), { processorDisputeId: id, now: new Date() });
};

describe("disputes in the sandbox", () => {
  it("holds the stores' shares back, lists the dispute for the operator, and keeps them back when lost", async () => {
    const stores = [await createStore({ platformFeeBps: 500 }), await createStore()];
    const { payment, orders } = await payCheckout(token, stores, [5_000, 3_000]);
    await settle();
    const dispute = await sandboxDispute(payment.processorPaymentId!, payment.amountCents);
    expect(dispute.outcome).toBe("dispute_opened");
    // Told twice (a repeated event): recorded once.
    expect(
      await recordDispute(db(), paymentProvider(), {
        processorDisputeId: dispute.id,
        now: new Date(),
      }),
    ).toBe("dispute_updated");
    await settle();
    const rows = await ledgerOf(payment.id);
    expect(rows.filter((row) => row.kind === "dispute")).toHaveLength(2);
    // All of it held back: the sales and the holds add up to nothing, fees included.
    expect(sumOf(rows)).toBe(0);
    const reversals = await db().sandboxTransferReversal.findMany({
      where: { transferId: { in: rows.map((row) => row.transferId!).filter(Boolean) } },
    });
    expect(reversals).toHaveLength(2);

    const [listed] = (await db().$transaction((tx) => listOpenDisputes(tx))).filter(
      (row) => row.processorDisputeId === dispute.id,
    );
    expect(listed).toMatchObject({
      amountCents: payment.amountCents,
      status: "needs_response",
      evidenceDueBy: expect.any(Date),
    });
    expect([...listed.orders].sort()).toEqual(orders.map((order) => order.number).sort());

    expect(await sandboxDecide(dispute.id, "lost")).toBe("dispute_lost");
    expect(
      await db().dispute.findUniqueOrThrow({ where: { processorDisputeId: dispute.id } }),
    ).toMatchObject({ status: "lost", closedAt: expect.any(Date) });
    expect(await ledgerOf(payment.id)).toHaveLength(4);
    expect(
      (await db().$transaction((tx) => listOpenDisputes(tx))).some(
        (row) => row.processorDisputeId === dispute.id,
      ),
    ).toBe(false);
  });

  it("gives the shares back once won: transferred again under the dispute's key", async () => {
    const stores = [await createStore({ platformFeeBps: 1000 })];
    const { payment } = await payCheckout(token, stores, [9_000]);
    await settle();
    const dispute = await sandboxDispute(payment.processorPaymentId!, 4_000);
    await settle();
    expect(await sandboxDecide(dispute.id, "won")).toBe("dispute_won");
    // Told again: nothing more is given back.
    expect(await sandboxDecide(dispute.id, "won")).toBe("dispute_updated");
    await settle();
    const rows = await ledgerOf(payment.id);
    expect(rows.map((row) => [row.kind, row.transferStatus])).toEqual([
      ["sale", "transferred"],
      ["dispute", "transferred"],
      ["dispute_won", "transferred"],
    ]);
    // What the store ends with is its sale's net again.
    expect(rows.reduce((sum, row) => sum + row.netCents, 0)).toBe(rows[0].netCents);
    const restored = await db().sandboxTransfer.findUniqueOrThrow({
      where: { id: rows[2].transferId! },
    });
    expect(restored.amountCents).toBe(rows[2].netCents);
  });
});

describe("disputes at Stripe", () => {
  const deliver = async (type: string, disputeId: string) => {
    const event = {
      id: `evt_${randomBytes(12).toString("hex")}`,
      object: "event",
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object: { id: disputeId, object: "dispute", status: "stale-copy-ignored" } },
    };
    const payload = JSON.stringify(event);
    const response = await handleStripeWebhook(
      new Request("http://localhost:3000/stripe/webhook", {
        method: "POST",
        body: payload,
        headers: {
          "content-type": "application/json",
          "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }),
        },
      }),
      { provider: stripeSide, secrets: () => [secret, undefined] },
    );
    expect(response.status).toBe(200);
    return (await db().stripeEvent.findUniqueOrThrow({ where: { id: event.id } })).outcome;
  };

  it("records created, updated and closed from Stripe's own state, once, and the day reconciles clean", async () => {
    const stores = [await createStore()];
    stripe.addAccount(stores[0].payoutAccount!);
    const { payment } = await payCheckoutAtStripe(token, stripeSide(), stores, [4_400]);
    await settle(stripeSide());
    const opened = stripe.openDispute(payment.processorPaymentId, 2_000, "product_not_received");
    expect(await deliver("charge.dispute.created", opened.id as string)).toBe("dispute_opened");
    expect(await deliver("charge.dispute.created", opened.id as string)).toBe("dispute_updated");
    expect(await deliver("charge.dispute.updated", opened.id as string)).toBe("dispute_updated");
    stripe.closeDispute(opened.id as string, "won");
    expect(await deliver("charge.dispute.closed", opened.id as string)).toBe("dispute_won");
    expect(await deliver("charge.dispute.closed", opened.id as string)).toBe("dispute_updated");
    expect(
      await db().dispute.findUniqueOrThrow({ where: { processorDisputeId: opened.id as string } }),
    ).toMatchObject({ status: "won", reason: "product_not_received", amountCents: 2_000 });
    await settle(stripeSide());
    expect(stripe.reversals).toHaveLength(1);

    // The day at Stripe: the charge, the transfer, the dispute's withdrawal and reinstatement, the reversal and the restore.
    await db()
      .$executeRaw`UPDATE payments SET captured_at = captured_at - interval '3 days' WHERE id <> ${payment.id} AND captured_at IS NOT NULL`;
    await db()
      .$executeRaw`UPDATE store_ledger_entries SET transferred_at = transferred_at - interval '3 days' WHERE payment_id <> ${payment.id}`;
    await db()
      .$executeRaw`UPDATE disputes SET opened_at = opened_at - interval '3 days', closed_at = closed_at - interval '3 days' WHERE payment_id <> ${payment.id}`;
    const report = await reconcileDay(db(), stripeSide(), new Date());
    expect(report.differences).toEqual([]);
    expect(report.matched).toBe(6);
  });
});
