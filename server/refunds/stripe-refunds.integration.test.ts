/**
 * Refunds through Stripe (docs/adr/0107), with the `stripe` package against the Stripe-shaped
 * server: ours carry our refund's id in metadata and are made once per key; one made in Stripe's
 * dashboard reaches us as `charge.refunded` and is recorded once (the refunds listed from Stripe,
 * never read from the event), however often the event is delivered; our own refund's event adds
 * nothing. A refund that waits at the bank is recorded only once it succeeds (never made twice
 * while it waits), one the bank fails frees its amount, and one the bank sends back after it
 * succeeded is undone once: the store's share paid again, the person and the partner told, and the
 * day still reconciles with Stripe's balance (docs/adr/0140).
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { stripeProvider } from "../payments/stripe";
import { handleStripeWebhook } from "../edges/stripe-webhook/endpoint";
import { payCheckoutAtStripe } from "../testing/paid-orders";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { refundOrder } from "./refund-order";
import { type PaymentProvider, UnknownOutcomeError } from "../payments/provider";
import { retryPendingRefunds } from "./retry-pending-refunds";
import { settleStoreShares } from "../payouts";
import { reconcileDay } from "../reconciliation/reconcile-day";

const secret = `whsec_${randomBytes(24).toString("hex")}`;
let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
let token: string;
let clientId: string;
const providerOf = (server: typeof stripe) =>
  stripeProvider({ secretKey: "sk_test_local", apiBase: server.url, maxNetworkRetries: 0 });
const provider = () => providerOf(stripe);

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  const partner = await createPartner();
  token = await partner.token();
  clientId = partner.client.id;
  // The partner listens for refunds failing.
  await db().webhookEndpoint.create({
    data: {
      id: `we_${randomBytes(8).toString("hex")}`,
      clientId,
      personId: null,
      url: "https://partner.example/hooks",
      eventTypes: ["order.refunded", "order.refund_failed"],
      secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA",
    },
  });
});
afterAll(() => stripe.close());

/** Stripe (`server`) tells us of a charge or a refund of `paymentIntent`: the event as Stripe signs and sends it. */
const tellUs = async (
  paymentIntent: string,
  type = "charge.refunded",
  object: { id: string; object: string } = {
    id: `ch_${randomBytes(8).toString("hex")}`,
    object: "charge",
  },
  server = stripe,
) => {
  const event = {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object: { ...object, payment_intent: paymentIntent } },
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
    { provider: () => providerOf(server), secrets: () => [secret, undefined] },
  );
  expect(response.status).toBe(200);
  return db().stripeEvent.findUniqueOrThrow({ where: { id: event.id } });
};

/** A refund made by a person at Stripe's dashboard: no metadata of ours. */
const refundInDashboard = async (paymentIntent: string, amount: number) => {
  const response = await fetch(`${stripe.url}/v1/refunds`, {
    method: "POST",
    headers: {
      authorization: "Bearer sk_test_local",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ payment_intent: paymentIntent, amount: String(amount) }),
  });
  expect(response.status).toBe(200);
};

describe("refunds at Stripe", () => {
  it("ours name our refund in metadata, once per key; its webhook adds nothing", async () => {
    const { payment, orders } = await payCheckoutAtStripe(
      token,
      provider(),
      [await createStore()],
      [7_000],
    );
    const outcome = await refundOrder(db(), provider(), {
      orderNumber: orders[0].number,
      amountCents: 1_500,
      reason: "Returned",
      source: "operator",
      now: new Date(),
    });
    expect(outcome.refund).toMatchObject({
      status: "succeeded",
      processorRefundId: expect.stringMatching(/^re_/),
    });
    const atStripe = stripe.refunds.filter(
      (refund) => refund.payment_intent === payment.processorPaymentId,
    );
    expect(atStripe).toEqual([
      expect.objectContaining({
        amount: 1_500,
        metadata: { refund: outcome.refund.id, order: orders[0].number },
      }),
    ]);
    expect((await tellUs(payment.processorPaymentId)).outcome).toBe("refunds:0");
    expect(await db().refund.count({ where: { orderId: orders[0].id } })).toBe(1);
  });

  it("one made in Stripe's dashboard is recorded once, across the payment's orders, however often Stripe tells us", async () => {
    const stores = [await createStore(), await createStore()];
    const { payment, orders } = await payCheckoutAtStripe(
      token,
      provider(),
      stores,
      [3_000, 2_000],
    );
    // More than the first order: the rest comes off the second.
    const amount = orders[0].grandTotalCents + 500;
    await refundInDashboard(payment.processorPaymentId, amount);

    expect((await tellUs(payment.processorPaymentId)).outcome).toBe("refunds:1");
    expect((await tellUs(payment.processorPaymentId)).outcome).toBe("refunds:0");
    const refunds = await db().refund.findMany({
      where: { paymentId: payment.id },
      orderBy: { amountCents: "desc" },
    });
    expect(
      refunds.map((refund) => [refund.orderId, refund.amountCents, refund.source, refund.status]),
    ).toEqual([
      [orders[0].id, orders[0].grandTotalCents, "processor", "succeeded"],
      [orders[1].id, 500, "processor", "succeeded"],
    ]);
    // The person is told, as for ours.
    expect(
      await db().emailMessage.count({
        where: {
          template: "refund-issued",
          props: { path: ["orderNumber"], equals: orders[0].number },
        },
      }),
    ).toBe(1);
  });

  /** Emails of a template about an order. */
  const emailsOf = (template: string, orderNumber: string) =>
    db().emailMessage.findMany({
      where: { template, props: { path: ["orderNumber"], equals: orderNumber } },
    });
  const refundOf = (payment: string) =>
    stripe.refunds.filter((refund) => refund.payment_intent === payment);
  /** A refund's event, as Stripe sends it when the bank moves it. */
  const refundUpdated = (
    payment: string,
    refundId: string,
    type = "refund.updated",
    server = stripe,
  ) => tellUs(payment, type, { id: refundId, object: "refund" }, server);

  it("one waiting at the bank is recorded only once it succeeds, never made twice while it waits", async () => {
    const { payment, orders } = await payCheckoutAtStripe(
      token,
      provider(),
      [await createStore()],
      [4_000],
    );
    stripe.makeRefundsWaitAtBank(true);
    const outcome = await refundOrder(db(), provider(), {
      orderNumber: orders[0].number,
      amountCents: 1_200,
      reason: "Returned",
      source: "operator",
      now: new Date(),
    }).finally(() => stripe.makeRefundsWaitAtBank(false));
    const [atStripe] = refundOf(payment.processorPaymentId);
    expect(outcome.refund).toMatchObject({ status: "pending", processorRefundId: atStripe.id });
    expect(outcome.refundedCents).toBe(0);
    expect(await emailsOf("refund-issued", orders[0].number)).toHaveLength(0);

    // The sweep, later: still at the bank; asked of Stripe's list, not made again.
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await retryPendingRefunds(db(), { now: later, provider: provider() })).toBe(1);
    expect(refundOf(payment.processorPaymentId)).toHaveLength(1);
    expect(await db().refund.findUniqueOrThrow({ where: { id: outcome.refund.id } })).toMatchObject(
      {
        status: "pending",
        processorRefundId: atStripe.id,
        nextAttemptAt: expect.any(Date),
      },
    );

    // The bank settles it; Stripe tells us (twice): recorded once, the person told then.
    stripe.settleRefund(atStripe.id as string, { status: "succeeded" });
    expect((await refundUpdated(payment.processorPaymentId, atStripe.id as string)).outcome).toBe(
      "refunds:1",
    );
    expect((await refundUpdated(payment.processorPaymentId, atStripe.id as string)).outcome).toBe(
      "refunds:0",
    );
    expect(await db().refund.findUniqueOrThrow({ where: { id: outcome.refund.id } })).toMatchObject(
      {
        status: "succeeded",
        succeededAt: expect.any(Date),
      },
    );
    expect(await emailsOf("refund-issued", orders[0].number)).toHaveLength(1);
    expect(
      await db().storeLedgerEntry.count({ where: { sourceId: outcome.refund.id, kind: "refund" } }),
    ).toBe(1);
  });

  it("one whose answer was lost is found in Stripe's list, not made again once Stripe forgot its key", async () => {
    const { payment, orders } = await payCheckoutAtStripe(
      token,
      provider(),
      [await createStore()],
      [2_500],
    );
    const lost: PaymentProvider = {
      ...provider(),
      refund: async (input) => {
        await provider().refund(input);
        throw new UnknownOutcomeError("answer lost");
      },
    };
    const pending = await refundOrder(db(), lost, {
      orderNumber: orders[0].number,
      amountCents: 900,
      reason: "Returned",
      source: "operator",
      now: new Date(),
    });
    expect(pending.refund).toMatchObject({ status: "pending", processorRefundId: null });
    // A day of no answers later, Stripe no longer knows the key.
    stripe.forgetIdempotencyKeys();
    await retryPendingRefunds(db(), {
      now: new Date(Date.now() + 25 * 3_600_000),
      provider: provider(),
    });
    const [made, ...more] = refundOf(payment.processorPaymentId);
    expect(more).toEqual([]);
    expect(await db().refund.findUniqueOrThrow({ where: { id: pending.refund.id } })).toMatchObject(
      {
        status: "succeeded",
        processorRefundId: made.id,
      },
    );
    expect(await emailsOf("refund-issued", orders[0].number)).toHaveLength(1);
  });

  it("one the bank fails while it waits is failed, and its amount can be refunded again", async () => {
    const { payment, orders } = await payCheckoutAtStripe(
      token,
      provider(),
      [await createStore()],
      [3_000],
    );
    const refund = (amountCents: number) =>
      refundOrder(db(), provider(), {
        orderNumber: orders[0].number,
        amountCents,
        reason: "Returned",
        source: "operator",
        now: new Date(),
      });
    stripe.makeRefundsWaitAtBank(true);
    const waiting = await refund(orders[0].grandTotalCents).finally(() =>
      stripe.makeRefundsWaitAtBank(false),
    );
    // Nothing more to refund while it waits.
    await expect(refund(1)).rejects.toMatchObject({ code: "not_refundable" });
    stripe.settleRefund(waiting.refund.processorRefundId!, {
      status: "failed",
      failureReason: "lost_or_stolen_card",
    });
    // Learnt by the sweep this time (no event came).
    await retryPendingRefunds(db(), {
      now: new Date(Date.now() + 10 * 60_000),
      provider: provider(),
    });
    expect(await db().refund.findUniqueOrThrow({ where: { id: waiting.refund.id } })).toMatchObject(
      {
        status: "failed",
        failureReason: expect.stringContaining("lost_or_stolen_card"),
        succeededAt: null,
      },
    );
    expect(await emailsOf("refund-issued", orders[0].number)).toHaveLength(0);
    expect(await db().storeLedgerEntry.count({ where: { sourceId: waiting.refund.id } })).toBe(0);
    const again = await refund(orders[0].grandTotalCents);
    expect(again.refund.status).toBe("succeeded");
    expect(refundOf(payment.processorPaymentId).map((each) => each.status)).toEqual([
      "failed",
      "succeeded",
    ]);
  });

  it("one the bank sends back after it succeeded is undone once: the store paid again, the person and the partner told, the day reconciled", async () => {
    // A Stripe account of its own: the day's balance holds this test's movements alone.
    const stripe = await startStripeShapedServer();
    onTestFinished(() => stripe.close());
    const provider = () => providerOf(stripe);
    const store = await createStore();
    stripe.addAccount(store.payoutAccount!);
    const { payment, orders } = await payCheckoutAtStripe(token, provider(), [store], [5_000]);
    const settle = () => settleStoreShares(db(), { now: new Date(), provider: provider() });
    await settle();
    const outcome = await refundOrder(db(), provider(), {
      orderNumber: orders[0].number,
      amountCents: 2_000,
      reason: "Returned",
      source: "operator",
      now: new Date(),
    });
    await settle();
    expect(outcome.refund.status).toBe("succeeded");
    const processorRefundId = outcome.refund.processorRefundId!;

    stripe.settleRefund(processorRefundId, {
      status: "failed",
      failureReason: "expired_or_canceled_card",
    });
    const told = await Promise.all([
      refundUpdated(payment.processorPaymentId, processorRefundId, "charge.refund.updated", stripe),
      refundUpdated(payment.processorPaymentId, processorRefundId, "refund.failed", stripe),
    ]);
    expect(told.map((event) => event.outcome).sort()).toEqual(["refunds:0", "refunds:1"]);
    expect(await db().refund.findUniqueOrThrow({ where: { id: outcome.refund.id } })).toMatchObject(
      {
        status: "failed",
        succeededAt: expect.any(Date),
        failedAt: expect.any(Date),
        failureReason: expect.stringContaining("expired_or_canceled_card"),
      },
    );

    // The store's share: taken back by the refund's reversal, given back by a transfer of the same amount.
    await settle();
    const [taken, given] = await Promise.all(
      ["refund", "refund_failed"].map((kind) =>
        db().storeLedgerEntry.findFirstOrThrow({ where: { sourceId: outcome.refund.id, kind } }),
      ),
    );
    expect(taken.netCents).toBeLessThan(0);
    expect(given).toMatchObject({
      netCents: 0 - taken.netCents,
      itemsCents: 0 - taken.itemsCents,
      feeCents: 0 - taken.feeCents,
      transferStatus: "transferred",
    });
    expect(stripe.transfers.find((transfer) => transfer.id === given.transferId)).toMatchObject({
      amount: 0 - taken.netCents,
      destination: store.payoutAccount,
    });

    // The person: told the money did not reach them, once, in words; the partner: one event.
    const [email] = await emailsOf("refund-failed", orders[0].number);
    expect(email.props).toMatchObject({
      amountCents: 2_000,
      failureReason: "expired_or_canceled_card",
      items: [expect.objectContaining({ title: expect.any(String), quantity: 1 })],
    });
    expect(await emailsOf("refund-failed", orders[0].number)).toHaveLength(1);
    const events = await db().webhookEvent.findMany({
      where: { type: "order.refund_failed", objectId: orders[0].number, clientId },
    });
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      data: {
        order_number: orders[0].number,
        refund: {
          id: outcome.refund.id,
          amount: { amount: "20.00" },
          failure_reason: "expired_or_canceled_card",
        },
        refunded: { amount: "0.00" },
      },
    });
    // The order's refunded amount is what reached the card: nothing; the whole order can be refunded again.
    const again = await refundOrder(db(), provider(), {
      orderNumber: orders[0].number,
      reason: "Paid back",
      source: "operator",
      now: new Date(),
    });
    expect(again.refund.amountCents).toBe(orders[0].grandTotalCents);

    // The day still reconciles with Stripe's balance: the refund, its failure, the transfers back and forth.
    await settle();
    await db()
      .$executeRaw`UPDATE payments SET captured_at = captured_at - interval '3 days' WHERE id <> ${payment.id} AND captured_at IS NOT NULL`;
    await db()
      .$executeRaw`UPDATE store_ledger_entries SET transferred_at = transferred_at - interval '3 days' WHERE payment_id <> ${payment.id}`;
    await db()
      .$executeRaw`UPDATE refunds SET created_at = created_at - interval '3 days', failed_at = failed_at - interval '3 days' WHERE payment_id <> ${payment.id}`;
    const report = await reconcileDay(db(), provider(), new Date());
    expect(report.differences).toEqual([]);
    // The charge, the two refunds and the failure, the sale's transfer, the reversal and the share given back.
    expect(report.matched).toBe(1 + 3 + 1 + 1 + 1);
  });
});
