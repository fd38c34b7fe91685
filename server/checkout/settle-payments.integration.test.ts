/**
 * Settling checkout payments. Exactly one capture per checkout: the attempt recorded as paying (in
 * the transaction that placed the orders) is the only one ever captured; every other hold is
 * released, however late it resolves and however often settlement runs. Attempts the processor
 * never answered are reconciled with `retrieve`, never with a second authorize: a hold found is
 * released (it paid for nothing); a payment the processor never made is declined; while the
 * processor cannot say, the attempt waits.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { createBarePurchase } from "../../prisma/factories/purchases";
import { fixedClock } from "../platform/clock";
import { db } from "../platform/db";
import { openCheckoutVia } from "../testing/checkout-fixtures";
import { pageCaller } from "../testing/page-caller";
import { finalizePayment } from "./hosted/finalize-payment";
import { startAttempt } from "./hosted/payment-attempt";
import { paymentProvider } from "../payments";
import { type PaymentProvider, ownerOf, processorKey } from "../payments/provider";
import { testCards } from "../payments/sandbox-cards";
import { attemptTimeoutMs, authorizePayment } from "../payments/payment-steps";
import { settlePayments } from "./settle-payments";
import { stripeProvider } from "../payments/stripe";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";

let token: string;
let storeId: number;
const card = {
  type: "card" as const,
  number: testCards.succeeds,
  exp_month: 12,
  exp_year: 2034,
  cvc: "123",
};
const cardOf = (number: string) => ({ ...card, number });
const later = () => new Date(Date.now() + 120_000);

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () =>
  (await openCheckoutVia(token, { storeId, priceCents: 5000, email: "buyer@example.ca" })).id;

/** The processor with its release call down (an outage while a late hold is being released). */
const releaseDown = (provider: PaymentProvider): PaymentProvider => ({
  ...provider,
  release: async () => {
    throw new Error("processor unavailable");
  },
});

const ledger = async (checkoutId: string) => {
  const payments = await db().payment.findMany({
    where: { checkoutId },
    orderBy: { attempt: "asc" },
  });
  const processor = await db().sandboxPayment.findMany({
    where: { id: { in: payments.map((payment) => payment.processorPaymentId!).filter(Boolean) } },
  });
  const captures = await db().sandboxProcessorRequest.count({
    where: {
      idempotencyKey: { startsWith: `${checkoutId}:` },
      response: { path: ["status"], equals: "captured" },
    },
  });
  return { payments, processor: new Map(processor.map((row) => [row.id, row.status])), captures };
};

describe("settling payments", () => {
  it("a stalled first attempt that resolves authorized after a second attempt paid is released, never captured", async () => {
    const id = await newCheckout();
    const t0 = new Date();
    // Attempt 1 goes to the processor and its answer stalls.
    const first = await startAttempt(db(), {
      checkoutId: id,
      method: "card",
      cardLast4: "4242",
      now: t0,
    });
    // After the attempt timeout the person pays again: attempt 2 places the orders; its capture is lost in a crash.
    const paid = await pageCaller(
      fixedClock(new Date(t0.getTime() + attemptTimeoutMs + 1_000)),
    ).checkoutPage.pay({ id, accept_terms: true, method: card });
    expect(paid.outcome).toBe("paid");
    const second = await db().payment.findFirstOrThrow({ where: { checkoutId: id, attempt: 2 } });
    await db().payment.update({ where: { id: second.id }, data: { status: "authorized" } });
    await db().sandboxPayment.update({
      where: { id: second.processorPaymentId! },
      data: { status: "authorized" },
    });
    await db().sandboxProcessorRequest.delete({
      where: { idempotencyKey: processorKey(ownerOf(second), "capture") },
    });
    // Attempt 1's hold finally comes back authorized; releasing it fails (processor outage).
    const provider = paymentProvider();
    const late = await provider.authorize({
      idempotencyKey: processorKey(ownerOf(first), "authorize"),
      amountCents: first.amountCents,
      method: { type: "card", number: card.number, expMonth: 12, expYear: 2034, cvc: "123" },
      description: `Checkout ${id}`,
    });
    await finalizePayment(db(), releaseDown(provider), {
      payment: first,
      processorPaymentId: late.id,
      now: new Date(t0.getTime() + attemptTimeoutMs + 2_000),
    }).catch(() => undefined);

    // The late attempt retried: it did not pay, so it is released, not reported paid.
    const retried = await finalizePayment(db(), provider, {
      payment: first,
      processorPaymentId: late.id,
      now: new Date(t0.getTime() + attemptTimeoutMs + 3_000),
    });
    expect(retried.outcome).toBe("closed");
    // Settlement, twice (several instances, or the next sweep): captures the paying attempt once.
    for (let run = 0; run < 2; run++)
      await settlePayments({ db: db(), now: new Date(Date.now() + 120_000) });

    const { payments, processor, captures } = await ledger(id);
    expect(payments.map((payment) => payment.status)).toEqual(["voided", "captured"]);
    expect(processor.get(late.id)).toBe("voided");
    expect(processor.get(second.processorPaymentId!)).toBe("captured");
    expect(captures).toBe(1);
    expect((await db().checkout.findUniqueOrThrow({ where: { id } })).paidPaymentId).toBe(
      second.id,
    );
  });
});

/** Every processor payment made for this checkout's attempts, found by their authorize keys. */
const holds = (checkoutId: string) =>
  db().sandboxPayment.findMany({
    where: { idempotencyKey: { startsWith: `${checkoutId}:` } },
    orderBy: { createdAt: "asc" },
  });

describe("reconciling attempts the processor never answered", () => {
  it("the bank that answers late: the attempt stays authorizing; settlement retrieves the real hold and releases it, with one hold and no second authorize", async () => {
    const id = await newCheckout();
    await expect(
      pageCaller().checkoutPage.pay({
        id,
        accept_terms: true,
        method: cardOf(testCards.answersLate),
      }),
    ).rejects.toMatchObject({ cause: { code: "payment_in_progress" } });
    const attempt = await db().payment.findFirstOrThrow({ where: { checkoutId: id } });
    expect(attempt).toMatchObject({ status: "authorizing", processorPaymentId: null });
    expect((await holds(id)).map((hold) => hold.status)).toEqual(["authorized"]);

    for (let run = 0; run < 2; run++) await settlePayments({ db: db(), now: later() });

    const [hold] = await holds(id);
    expect(await holds(id)).toHaveLength(1);
    expect(hold).toMatchObject({
      status: "voided",
      idempotencyKey: processorKey({ kind: "checkout", id, attempt: 1 }, "authorize"),
    });
    expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      status: "voided",
      processorPaymentId: hold.id,
    });
    expect(
      await db().sandboxProcessorRequest.count({
        where: { idempotencyKey: { startsWith: `${id}:` } },
      }),
    ).toBe(2); // authorize, release
    // The checkout is still payable, with a new attempt and key.
    expect(
      (await pageCaller().checkoutPage.pay({ id, accept_terms: true, method: card })).outcome,
    ).toBe("paid");
    expect((await holds(id)).map((row) => row.status)).toEqual(["voided", "captured"]);
  });

  it("a payment the processor never made is declined; while the processor cannot answer, the attempt waits", async () => {
    const id = await newCheckout();
    const attempt = await startAttempt(db(), {
      checkoutId: id,
      method: "card",
      cardLast4: "4242",
      now: new Date(),
    });
    const down: PaymentProvider = {
      ...paymentProvider(),
      retrieve: async () => {
        throw new Error("processor unavailable");
      },
    };
    await settlePayments({ db: db(), now: later(), provider: down });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "authorizing",
    );
    // Asked again once its backoff (30 s after the first miss) has passed.
    await settlePayments({ db: db(), now: later() });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "authorizing",
    );
    await settlePayments({ db: db(), now: new Date(later().getTime() + 31_000) });
    expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      status: "declined",
      declineCode: "processor_timeout",
    });
    expect(await holds(id)).toHaveLength(0);
  });

  it("a payment belongs to exactly one owner", async () => {
    const id = await newCheckout();
    const row = {
      id: `pay_${Date.now().toString(16)}`,
      attempt: 1,
      method: "card",
      status: "authorizing" as const,
      amountCents: 100,
    };
    await expect(db().payment.create({ data: row })).rejects.toThrow(
      /exactly one checkout or purchase/,
    );
    await expect(
      db().payment.create({ data: { ...row, checkoutId: id, purchaseId: "pur_x" } }),
    ).rejects.toThrow(/exactly one checkout or purchase/);
    await expect(
      db().payment.create({ data: { ...row, purchaseId: (await createBarePurchase()).id } }),
    ).resolves.toMatchObject({ checkoutId: null });
  });

  it("at Stripe: an authorize that timed out is found by its key's metadata and its PaymentIntent cancelled, never created twice", async () => {
    const stripe = await startStripeShapedServer();
    try {
      const id = await newCheckout();
      const attempt = await startAttempt(db(), {
        checkoutId: id,
        method: "card",
        cardLast4: "4242",
        now: new Date(),
      });
      stripe.delayNextResponse(1_500);
      const impatient = stripeProvider({
        secretKey: "sk_test_local",
        apiBase: stripe.url,
        maxNetworkRetries: 0,
        timeoutMs: 300,
      });
      expect(
        await authorizePayment(db(), impatient, {
          payment: attempt,
          method: {
            type: "card",
            number: testCards.succeeds,
            expMonth: 12,
            expYear: 2034,
            cvc: "123",
          },
          description: `Checkout ${id}`,
        }),
      ).toEqual({ kind: "unknown" });
      await settlePayments({
        db: db(),
        now: later(),
        provider: stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url }),
      });
      const [intent, ...others] = [...stripe.intents.values()];
      expect(others).toHaveLength(0);
      expect(intent).toMatchObject({
        status: "canceled",
        metadata: { authorize_key: `${id}:1:authorize` },
      });
      expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
        status: "voided",
        processorPaymentId: intent.id,
      });
    } finally {
      await stripe.close();
    }
  });
});
