/**
 * Refunds through Stripe (docs/adr/0107), with the `stripe` package against the Stripe-shaped
 * server: ours carry our refund's id in metadata and are made once per key; one made in Stripe's
 * dashboard reaches us as `charge.refunded` and is recorded once (the refunds listed from Stripe,
 * never read from the event), however often the event is delivered; our own refund's event adds
 * nothing.
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { stripeProvider } from "../payments/stripe";
import { handleStripeWebhook } from "../edges/stripe-webhook/endpoint";
import { payCheckoutAtStripe } from "../testing/paid-orders";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { refundOrder } from "./refund-order";

const secret = `whsec_${randomBytes(24).toString("hex")}`;
let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
let token: string;
const provider = () =>
  stripeProvider({ secretKey: "sk_test_local", apiBase: stripe.url, maxNetworkRetries: 0 });

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  token = await (await createPartner()).token();
});
afterAll(() => stripe.close());

/** Stripe tells us a charge was refunded: the event as Stripe signs and sends it. */
const chargeRefunded = async (paymentIntent: string) => {
  const event = {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    created: Math.floor(Date.now() / 1000),
    type: "charge.refunded",
    data: {
      object: {
        id: `ch_${randomBytes(8).toString("hex")}`,
        object: "charge",
        payment_intent: paymentIntent,
      },
    },
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
    { provider, secrets: () => [secret, undefined] },
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
    expect((await chargeRefunded(payment.processorPaymentId)).outcome).toBe("refunds:0");
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

    expect((await chargeRefunded(payment.processorPaymentId)).outcome).toBe("refunds:1");
    expect((await chargeRefunded(payment.processorPaymentId)).outcome).toBe("refunds:0");
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
});
