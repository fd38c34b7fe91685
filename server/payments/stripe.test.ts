/**
 * The Stripe processor through the `stripe` package against a local server that answers as Stripe's
 * documented API (server/testing/stripe-shaped-server.ts), reached with the package's host, port and
 * protocol settings: holds with manual capture, off-session saved cards, capture, release, refund,
 * declines, idempotent replay, and a timeout reconciled by retrieve with no second PaymentIntent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomId } from "../core/ids";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { type PaymentOwner, UnknownOutcomeError, processorKey } from "./provider";
import { testCards } from "./sandbox-cards";
import { stripeProvider } from "./stripe";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
const secretKey = "sk_test_local";
const card = (number: string) => ({
  type: "card" as const,
  number,
  expMonth: 12,
  expYear: 2034,
  cvc: "123",
});
const purchase = (): PaymentOwner => ({ kind: "purchase", id: randomId("pur_") });
const provider = () => stripeProvider({ secretKey, apiBase: stripe.url, maxNetworkRetries: 0 });

beforeAll(async () => {
  stripe = await startStripeShapedServer();
});
afterAll(() => stripe.close());

const savedCard = async (number: string) => {
  const saved = await provider().saveMethod({
    idempotencyKey: randomId("save_"),
    card: card(number),
    email: "ana@example.ca",
  });
  expect(saved.paymentMethodId).toMatch(/^pm_[0-9a-f]+$/);
  return {
    type: "saved" as const,
    customerId: saved.customerId,
    paymentMethodId: saved.paymentMethodId,
  };
};

describe("Stripe processor", () => {
  it("holds a saved card off-session with manual capture, captures once, refunds, each call replayed by its key", async () => {
    const owner = purchase();
    const method = await savedCard(testCards.succeeds);
    const authorize = {
      idempotencyKey: processorKey(owner, "authorize"),
      amountCents: 5000,
      method,
      description: "Purchase",
    };
    const held = await provider().authorize(authorize);
    expect(held).toMatchObject({ status: "authorized", amountCents: 5000 });
    expect(stripe.intents.get(held.id)).toMatchObject({
      capture_method: "manual",
      currency: "cad",
      customer: method.customerId,
      metadata: { authorize_key: authorize.idempotencyKey },
    });
    const count = stripe.intents.size;
    expect((await provider().authorize(authorize)).id).toBe(held.id);
    expect(stripe.intents.size).toBe(count);
    // The same key with other parameters (idempotency_error): Stripe refused the create, a refusal (M4), not an unknown outcome.
    await expect(provider().authorize({ ...authorize, amountCents: 6000 })).rejects.toThrow(
      /same parameters/,
    );
    await expect(provider().authorize({ ...authorize, amountCents: 6000 })).rejects.toMatchObject({
      name: "ProcessorRefusedError",
      reason: "processor_refused",
    });

    const capture = { idempotencyKey: processorKey(owner, "capture"), paymentId: held.id };
    expect((await provider().capture(capture)).status).toBe("captured");
    expect((await provider().capture(capture)).status).toBe("captured");
    // A capture retried under another key finds the PaymentIntent already captured: a success, not a second charge.
    expect(
      (await provider().capture({ ...capture, idempotencyKey: `${capture.idempotencyKey}:again` }))
        .status,
    ).toBe("captured");
    const refund = {
      idempotencyKey: processorKey(owner, "refund"),
      paymentId: held.id,
      amountCents: 1200,
    };
    expect((await provider().refund(refund)).refundedCents).toBe(1200);
    expect((await provider().refund(refund)).refundedCents).toBe(1200);
    expect(stripe.refunds.filter((row) => row.payment_intent === held.id)).toHaveLength(1);
  });

  it("releases a hold; declines and authentication are mapped from Stripe's errors", async () => {
    const owner = purchase();
    const held = await provider().authorize({
      idempotencyKey: processorKey(owner, "authorize"),
      amountCents: 900,
      method: card(testCards.succeeds),
      description: "Checkout",
    });
    expect(
      (
        await provider().release({
          idempotencyKey: processorKey(owner, "release"),
          paymentId: held.id,
        })
      ).status,
    ).toBe("voided");
    expect(stripe.intents.get(held.id)?.status).toBe("canceled");

    const declined = await provider().authorize({
      idempotencyKey: randomId("k_"),
      amountCents: 900,
      method: card(testCards.declined),
      description: "Checkout",
    });
    expect(declined).toMatchObject({ status: "declined", declineCode: "card_declined" });
    const offSession = await provider().authorize({
      idempotencyKey: randomId("k_"),
      amountCents: 900,
      method: await savedCard(testCards.requiresAuthentication),
      description: "Purchase",
    });
    expect(offSession).toMatchObject({
      status: "requires_action",
      declineCode: "authentication_required",
    });

    const onSession = await provider().authorize({
      idempotencyKey: randomId("k_"),
      amountCents: 900,
      method: card(testCards.requiresAuthentication),
      description: "Checkout",
    });
    expect(onSession.status).toBe("requires_action");
    stripe.completeAuthentication(onSession.id);
    expect(
      (
        await provider().confirm({
          idempotencyKey: randomId("k_"),
          paymentId: onSession.id,
          authenticated: true,
        })
      ).status,
    ).toBe("authorized");
    const abandoned = await provider().authorize({
      idempotencyKey: randomId("k_"),
      amountCents: 900,
      method: card(testCards.requiresAuthentication),
      description: "Checkout",
    });
    expect(
      await provider().confirm({
        idempotencyKey: randomId("k_"),
        paymentId: abandoned.id,
        authenticated: false,
      }),
    ).toMatchObject({ status: "declined", declineCode: "authentication_failed" });
    expect(stripe.intents.get(abandoned.id)?.status).toBe("canceled");
  });

  it("a timeout is an unknown outcome, reconciled by retrieve with the key in the metadata: one PaymentIntent", async () => {
    const key = processorKey(purchase(), "authorize");
    const before = stripe.intents.size;
    stripe.delayNextResponse(1_500);
    const impatient = stripeProvider({
      secretKey,
      apiBase: stripe.url,
      maxNetworkRetries: 0,
      timeoutMs: 300,
    });
    await expect(
      impatient.authorize({
        idempotencyKey: key,
        amountCents: 700,
        method: card(testCards.succeeds),
        description: "Purchase",
      }),
    ).rejects.toBeInstanceOf(UnknownOutcomeError);
    const found = await provider().retrieve({ authorizeKey: key });
    expect(found).toMatchObject({ status: "authorized", amountCents: 700 });
    expect(await provider().retrieve({ paymentId: found!.id })).toMatchObject({
      id: found!.id,
      status: "authorized",
    });
    expect(stripe.intents.size).toBe(before + 1);
    expect(await provider().retrieve({ authorizeKey: "pur_never:authorize" })).toBeNull();
    expect(await provider().retrieve({ paymentId: "pi_missing" })).toBeNull();
  });

  it("the client's own retry after a timeout reuses the key: Stripe replays the hold, no second PaymentIntent", async () => {
    const key = processorKey(purchase(), "authorize");
    const before = stripe.intents.size;
    stripe.delayNextResponse(1_500);
    const retrying = stripeProvider({
      secretKey,
      apiBase: stripe.url,
      maxNetworkRetries: 1,
      timeoutMs: 300,
    });
    expect(
      await retrying.authorize({
        idempotencyKey: key,
        amountCents: 800,
        method: card(testCards.succeeds),
        description: "Purchase",
      }),
    ).toMatchObject({ status: "authorized" });
    expect(stripe.intents.size).toBe(before + 1);
  });
});
