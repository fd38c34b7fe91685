/**
 * Review H1: nothing is paid without money. Settlement never takes an attempt for lost while a
 * processor call can still be running (Stripe: 20 s x 3 tries plus its retry delays); a finalize
 * that arrives after settlement released the hold places no order; a capture the processor refuses
 * (the hold lapsed or was released) is recorded as capture_failed, the checkout is marked for the
 * operator, the operator's listing shows it and the shopper is emailed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { openCheckoutVia } from "../testing/checkout-fixtures";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { finalizePayment } from "../checkout/hosted/finalize-payment";
import { startAttempt } from "../checkout/hosted/payment-attempt";
import { listCaptureFailures } from "../edges/ops/payment-commands";
import { sandboxProvider } from "./sandbox";
import { testCards } from "./sandbox-cards";
import { authorizePayment } from "./payment-steps";
import { settlePayments } from "../checkout/settle-payments";
import { stripeProvider } from "./stripe";

let token: string;
let storeId: number;
const card = (number: string) => ({
  type: "card" as const,
  number,
  expMonth: 12,
  expYear: 2034,
  cvc: "123",
});

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () =>
  (
    await openCheckoutVia(token, {
      storeId,
      priceCents: 5000,
      email: "h1@example.ca",
      firstName: "Ana",
    })
  ).id;

/** The longest a Stripe call may take with the service's client settings: 3 tries of 20 s, and the retry delays between them. */
const slowestStripeCallMs = 3 * 20_000 + 2 * 5_000;

describe("a slow processor", () => {
  it("a sweep while the Stripe call is still running leaves the attempt alone: the checkout is paid and the money captured", async () => {
    const stripe = await startStripeShapedServer();
    try {
      const provider = stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url });
      const id = await newCheckout();
      const t0 = new Date();
      const attempt = await startAttempt(db(), {
        checkoutId: id,
        method: "card",
        cardLast4: "4242",
        now: t0,
      });
      stripe.delayNextResponse(1_500);
      const authorizing = authorizePayment(db(), provider, {
        payment: attempt,
        method: card(testCards.succeeds),
        description: `Checkout ${id}`,
      });
      // The sweep runs while the call is in flight, as late into it as a Stripe call may still be running.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await settlePayments({
        db: db(),
        now: new Date(t0.getTime() + slowestStripeCallMs),
        provider,
      });
      const result = await authorizing;
      expect(result.kind).toBe("authorized");
      const outcome = await finalizePayment(db(), provider, {
        payment: attempt,
        processorPaymentId: (result as { processorPaymentId: string }).processorPaymentId,
        now: new Date(),
      });

      const [intent, ...others] = [...stripe.intents.values()];
      expect(others).toHaveLength(0);
      const checkout = await db().checkout.findUniqueOrThrow({ where: { id } });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: attempt.id } });
      // Paid only with money: the order stands exactly when the PaymentIntent was captured.
      expect({
        outcome: outcome.outcome,
        checkout: checkout.status,
        payment: payment.status,
        intent: intent.status,
      }).toEqual({ outcome: "paid", checkout: "paid", payment: "captured", intent: "succeeded" });
    } finally {
      await stripe.close();
    }
  });

  it("a finalize that arrives after settlement released the hold places no order and charges nothing", async () => {
    const provider = sandboxProvider();
    const id = await newCheckout();
    const t0 = new Date();
    const attempt = await startAttempt(db(), {
      checkoutId: id,
      method: "card",
      cardLast4: "4242",
      now: t0,
    });
    const result = await authorizePayment(db(), provider, {
      payment: attempt,
      method: card(testCards.succeeds),
      description: `Checkout ${id}`,
    });
    expect(result.kind).toBe("authorized");
    // The answer took so long that settlement, much later, found the hold and released it.
    await settlePayments({ db: db(), now: new Date(t0.getTime() + 60 * 60_000), provider });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "voided",
    );

    const outcome = await finalizePayment(db(), provider, {
      payment: attempt,
      processorPaymentId: (result as { processorPaymentId: string }).processorPaymentId,
      now: new Date(),
    });
    expect(outcome.outcome).not.toBe("paid");
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "awaiting_payment",
      paidPaymentId: null,
    });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "voided",
    );
    expect(
      await db().sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `${id}:` }, status: "captured" },
      }),
    ).toBe(0);
  });
});

describe("a capture the processor refuses", () => {
  it("at payment: the hold lapsed before the capture; the payment is capture_failed, the checkout marked, the operator lists it and the shopper is emailed", async () => {
    const provider = sandboxProvider();
    const id = await newCheckout();
    const attempt = await startAttempt(db(), {
      checkoutId: id,
      method: "card",
      cardLast4: "4242",
      now: new Date(),
    });
    const result = await authorizePayment(db(), provider, {
      payment: attempt,
      method: card(testCards.succeeds),
      description: `Checkout ${id}`,
    });
    const processorPaymentId = (result as { processorPaymentId: string }).processorPaymentId;
    // The bank released the hold before our capture reached it.
    await db().sandboxPayment.update({
      where: { id: processorPaymentId },
      data: { status: "voided" },
    });

    const outcome = await finalizePayment(db(), provider, {
      payment: attempt,
      processorPaymentId,
      now: new Date(),
    });
    expect(outcome.outcome).not.toBe("paid");
    expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      status: "capture_failed",
    });
    const checkout = await db().checkout.findUniqueOrThrow({ where: { id } });
    expect(checkout.captureFailedAt).toBeInstanceOf(Date);
    const email = await db().emailMessage.findFirstOrThrow({
      where: { dedupeKey: `payment-failed:${id}` },
    });
    expect(email).toMatchObject({ to: "h1@example.ca", template: "payment-failed" });
    const listed = await listCaptureFailures();
    expect(listed.payments).toContainEqual(
      expect.objectContaining({
        payment_id: attempt.id,
        checkout_id: id,
        order_number: checkout.orderNumber,
        email: "h1@example.ca",
      }),
    );
    // Settlement does not try again: nothing more is asked of the processor.
    await settlePayments({ db: db(), now: new Date(Date.now() + 60 * 60_000), provider });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "capture_failed",
    );
  });

  it("in settlement: a paying hold whose capture was lost in a crash and which lapsed meanwhile is capture_failed and told", async () => {
    const provider = sandboxProvider();
    const id = await newCheckout();
    const attempt = await startAttempt(db(), {
      checkoutId: id,
      method: "card",
      cardLast4: "4242",
      now: new Date(),
    });
    const result = await authorizePayment(db(), provider, {
      payment: attempt,
      method: card(testCards.succeeds),
      description: `Checkout ${id}`,
    });
    const processorPaymentId = (result as { processorPaymentId: string }).processorPaymentId;
    // The capture never ran (a crash right after the orders): simulate with a processor whose capture is down.
    const captureDown = {
      ...provider,
      capture: async () => {
        throw new Error("process stopped");
      },
    };
    expect(
      (
        await finalizePayment(db(), captureDown, {
          payment: attempt,
          processorPaymentId,
          now: new Date(),
        })
      ).outcome,
    ).toBe("paid");
    await db().sandboxPayment.update({
      where: { id: processorPaymentId },
      data: { status: "voided" },
    });

    await settlePayments({ db: db(), now: new Date(Date.now() + 60 * 60_000), provider });
    expect((await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).status).toBe(
      "capture_failed",
    );
    expect(
      (await db().checkout.findUniqueOrThrow({ where: { id } })).captureFailedAt,
    ).toBeInstanceOf(Date);
    expect(await db().emailMessage.count({ where: { dedupeKey: `payment-failed:${id}` } })).toBe(1);
  });
});
