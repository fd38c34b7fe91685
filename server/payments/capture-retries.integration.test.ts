/**
 * Review L5: a capture the processor does not answer is retried with growing delays, a bounded
 * number of times, the same way for a checkout (settlement) and an assistant purchase (its charge
 * step and the sweep). After the bound the payment is capture_failed, the operator's listing shows
 * it, and nothing calls the processor again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { createHeldPurchase } from "../../prisma/factories/purchases";
import { db } from "../platform/db";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { finalizePayment } from "../checkout/hosted/finalize-payment";
import { startAttempt } from "../checkout/hosted/payment-attempt";
import { chargeDuePurchase, chargeDuePurchases } from "../purchases/charge-purchase";
import { listCaptureFailures } from "../edges/ops/payment-commands";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";
import { testCards } from "./sandbox-cards";
import { authorizePayment } from "./payment-steps";
import { settlePayments } from "../checkout/settle-payments";

const hour = 60 * 60_000;

/** The sandbox with its capture down (an outage), counting the capture calls it receives. */
const captureDown = () => {
  const calls: Date[] = [];
  const provider: PaymentProvider = {
    ...sandboxProvider(),
    capture: async () => {
      calls.push(new Date());
      throw new Error("processor unavailable");
    },
  };
  return { provider, calls };
};

let token: string;
let storeId: number;
beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const paidCheckoutWithoutCapture = async (provider: PaymentProvider, now: Date) => {
  const item = await createItem({ storeId, priceCents: 4000 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "l5@example.ca",
  });
  const id = JSON.parse(text).checkout_id as string;
  const attempt = await startAttempt(db(), {
    checkoutId: id,
    method: "card",
    cardLast4: "4242",
    now,
  });
  const result = await authorizePayment(db(), provider, {
    payment: attempt,
    method: { type: "card", number: testCards.succeeds, expMonth: 12, expYear: 2034, cvc: "123" },
    description: `Checkout ${id}`,
  });
  const outcome = await finalizePayment(db(), provider, {
    payment: attempt,
    processorPaymentId: (result as { processorPaymentId: string }).processorPaymentId,
    now,
  });
  expect(outcome.outcome).toBe("paid");
  return { id, paymentId: attempt.id };
};

describe("bounded capture retries", () => {
  it("a checkout's capture: settlement backs off between tries, stops after the bound, marks it capture_failed for the operator and tells the shopper", async () => {
    const { provider, calls } = captureDown();
    const t0 = new Date();
    const { id, paymentId } = await paidCheckoutWithoutCapture(provider, t0);
    expect(calls).toHaveLength(1);

    // Right after a failure, runs every few seconds do not call again: the next try waits.
    const settleAt = (at: Date) => settlePayments({ db: db(), now: at, provider });
    await settleAt(new Date(t0.getTime() + 5_000));
    await settleAt(new Date(t0.getTime() + 10_000));
    expect(calls).toHaveLength(1);

    // A day of the sweep every 5 minutes: a bounded number of calls, then none.
    for (let at = t0.getTime() + 5 * 60_000; at < t0.getTime() + 24 * hour; at += 5 * 60_000)
      await settleAt(new Date(at));
    const made = calls.length;
    expect(made).toBeGreaterThan(2);
    expect(made).toBeLessThanOrEqual(10);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: "capture_failed",
      declineCode: "capture_retries_exhausted",
    });
    expect(
      (await db().checkout.findUniqueOrThrow({ where: { id } })).captureFailedAt,
    ).toBeInstanceOf(Date);
    expect(await db().emailMessage.count({ where: { dedupeKey: `payment-failed:${id}` } })).toBe(1);
    expect((await listCaptureFailures()).payments).toContainEqual(
      expect.objectContaining({ payment_id: paymentId, reason: "capture_retries_exhausted" }),
    );
    await settleAt(new Date(t0.getTime() + 48 * hour));
    expect(calls).toHaveLength(made);
  });

  it("a capture whose answer was lost is found captured at once (the processor is asked what it holds), never retried into capture_failed", async () => {
    const sandbox = sandboxProvider();
    let lost = 0;
    const provider: PaymentProvider = {
      ...sandbox,
      capture: async (input) => {
        await sandbox.capture(input); // done at the processor...
        lost++;
        throw new Error("socket hang up"); // ...and the answer never arrives
      },
    };
    const { id, paymentId } = await paidCheckoutWithoutCapture(provider, new Date());
    expect(lost).toBe(1);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: "captured",
      captureAttempts: 0,
    });
    expect((await db().checkout.findUniqueOrThrow({ where: { id } })).captureFailedAt).toBeNull();
  });

  it("an assistant purchase's capture: the charge step and the sweep share the bound; after it, capture_failed and no more calls", async () => {
    const { provider, calls } = captureDown();
    const t0 = new Date();
    const { purchase } = await createHeldPurchase({ chargesAt: new Date(t0.getTime() - 1000) });
    await expect(
      chargeDuePurchase(db(), purchase.id, { now: t0, provider, sandboxMailbox: true }),
    ).rejects.toThrow(/retried later/);
    expect(calls).toHaveLength(1);
    // The step's own quick retries do not call the processor again before the backoff.
    await expect(
      chargeDuePurchase(db(), purchase.id, {
        now: new Date(t0.getTime() + 2_000),
        provider,
        sandboxMailbox: true,
      }),
    ).rejects.toThrow();
    expect(calls).toHaveLength(1);

    for (let at = t0.getTime() + 5 * 60_000; at < t0.getTime() + 24 * hour; at += 5 * 60_000)
      await chargeDuePurchases(db(), { now: new Date(at), provider, sandboxMailbox: true });
    const made = calls.length;
    expect(made).toBeGreaterThan(2);
    expect(made).toBeLessThanOrEqual(10);
    const payment = await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } });
    expect(payment).toMatchObject({
      status: "capture_failed",
      declineCode: "capture_retries_exhausted",
    });
    expect((await listCaptureFailures()).payments).toContainEqual(
      expect.objectContaining({ payment_id: payment.id, purchase_id: purchase.id }),
    );
    await chargeDuePurchases(db(), {
      now: new Date(t0.getTime() + 48 * hour),
      provider,
      sandboxMailbox: true,
    });
    expect(calls).toHaveLength(made);
  });
});
