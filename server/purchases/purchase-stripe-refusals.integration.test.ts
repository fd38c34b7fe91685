/**
 * Review M4: POST /purchases with the Stripe processor (the real `stripe` package against the local
 * Stripe-shaped server) when Stripe refuses the PaymentIntent's create with an error that is not a
 * card's: a saved card no longer on the customer (resource_missing: detached), a rolled secret key
 * (authentication_error), a restricted key without write permission (permission_error). Each is a
 * refusal stored under the key with nothing held: no PaymentIntent, the item given back, the 30-day
 * room and the hourly count untouched; never a 500 with the purchase `processing` for an hour.
 * "Unknown outcome" stays for transport errors only (processor-timeout tests).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { resetEnv } from "../platform/env";
import { stripeProvider } from "../payments/stripe";
import { testCards } from "../payments/sandbox-cards";
import { agentWithPerson, buy, directItem, getPurchase, quoteOf } from "../testing/agent-purchases";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { buyQuote } from "./buy-quote";
import { purchasesPerHour } from "./policy";
import { reconcilePurchases } from "./reconcile-purchases";
import { paymentProvider } from "../payments";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
const saved = { ...process.env };
const useKey = (key: string) => {
  process.env.STRIPE_SECRET_KEY = key;
  resetEnv();
};

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  Object.assign(process.env, { PAYMENT_PROCESSOR: "stripe", STRIPE_API_BASE: stripe.url });
  useKey("sk_test_purchases");
});
afterAll(async () => {
  for (const name of ["PAYMENT_PROCESSOR", "STRIPE_API_BASE", "STRIPE_SECRET_KEY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnv();
  await stripe.close();
});

/** A linked person whose saved card is a PaymentMethod saved at the Stripe-shaped server (a SetupIntent for a Customer). */
const personWithStripeCard = async (number: string = testCards.succeeds) => {
  const made = await agentWithPerson({ card: null });
  const card = await stripeProvider({
    secretKey: "sk_test_setup",
    apiBase: stripe.url,
    maxNetworkRetries: 0,
  }).saveMethod({
    idempotencyKey: randomId("save_"),
    card: { type: "card", number, expMonth: 12, expYear: 2031, cvc: "123" },
  });
  await db().savedCard.create({
    data: {
      personId: made.person.id,
      processorCustomerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2031,
    },
  });
  return made;
};

/** POST /purchases of a new one-item quote; what it left behind. */
const buyOne = async (token: string, key = randomUUID()) => {
  const item = await directItem();
  const quote = await quoteOf(token, [item.id]);
  const intents = stripe.intents.size;
  const answer = await buy(token, quote.quote_id, key);
  const quantity = (await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity;
  return { answer, key, quote, quantity, newIntents: stripe.intents.size - intents };
};

const expectRefusedWithNothingHeld = async (
  token: string,
  made: Awaited<ReturnType<typeof buyOne>>,
  code: string,
  status: string,
) => {
  expect([made.answer.status, made.answer.body.error?.code]).toEqual([409, code]);
  expect(made.newIntents).toBe(0);
  expect(made.quantity).toBe(1);
  const purchase = await db().purchase.findFirstOrThrow({
    where: { quoteId: made.quote.quote_id },
  });
  expect(purchase.status).toBe(status);
  expect(
    await db().payment.findUniqueOrThrow({ where: { purchaseId: purchase.id } }),
  ).toMatchObject({ status: "declined", processorPaymentId: null });
  expect((await getPurchase(token, purchase.id)).body).toMatchObject({
    status,
    checkout: null,
    error: { code },
  });
  // One key, one answer.
  const again = await buy(token, made.quote.quote_id, made.key);
  expect([again.status, again.text]).toEqual([409, made.answer.text]);
};

describe("POST /purchases: Stripe refuses the create (M4)", () => {
  it("a saved card no longer on the customer (detached: resource_missing): 409 card_not_on_this_account, nothing held", async () => {
    const { token, person } = await personWithStripeCard();
    expect((await buyOne(token)).answer.status).toBe(201);
    // The PaymentMethod was detached at Stripe (another device, the dashboard): Stripe no longer has it.
    await db().savedCard.update({
      where: { personId: person.id },
      data: { paymentMethodId: `pm_${randomUUID().replace(/-/g, "")}` },
    });
    await expectRefusedWithNothingHeld(
      token,
      await buyOne(token),
      "card_not_on_this_account",
      "requires_person",
    );
  });

  it("a rolled secret key (authentication_error), then a restricted key without write permission (permission_error): 409 processor_refused, nothing held, and the hour's count untouched", async () => {
    const { token } = await personWithStripeCard();
    stripe.revokeKey("sk_test_purchases");
    await expectRefusedWithNothingHeld(token, await buyOne(token), "processor_refused", "refused");
    useKey("rk_test_readonly");
    await expectRefusedWithNothingHeld(token, await buyOne(token), "processor_refused", "refused");
    // The operator sets a working key: the person can still make the hour's purchases.
    useKey("sk_test_rotated");
    for (let index = 0; index < purchasesPerHour; index++)
      expect((await buyOne(token)).answer.status).toBe(201);
    expect((await buyOne(token)).answer.status).toBe(429);
  });
});

describe("POST /purchases: Stripe answers 500 or 429 (RELIABILITY B4-08)", () => {
  it("a 500 is retried with the same key, and the retry holds the card once", async () => {
    const { token } = await personWithStripeCard();
    stripe.failNextWrites(2, 500);
    const made = await buyOne(token);
    expect([made.answer.status, made.answer.body.status]).toEqual([201, "held"]);
    expect(made.newIntents).toBe(1);
    // Both refused tries and the one that worked carried the purchase's own key.
    const keys = stripe.failedKeys();
    expect(keys).toHaveLength(2);
    expect(new Set(keys)).toEqual(new Set([`${made.answer.body.purchase_id}:authorize`]));
  });

  it("a passing rate limit is sent again after a backoff (stripe-pace.ts): held, one PaymentIntent, every try with the purchase's own key", async () => {
    const { token } = await personWithStripeCard();
    stripe.failNextWrites(3, 429);
    const made = await buyOne(token);
    expect([made.answer.status, made.answer.body.status]).toEqual([201, "held"]);
    expect(made.newIntents).toBe(1);
    const keys = stripe.failedKeys();
    expect(keys).toHaveLength(3);
    expect(new Set(keys)).toEqual(new Set([`${made.answer.body.purchase_id}:authorize`]));
  });

  it("a rate limit that lasts past the pace's wait: 202 processing with nothing held, never a second PaymentIntent; the same key answers the same, not a 409 loop", async () => {
    const { token } = await personWithStripeCard();
    stripe.failNextWrites(10_000, 429);
    const made = await buyOne(token);
    expect([made.answer.status, made.answer.body.status]).toEqual([202, "processing"]);
    expect(made.newIntents).toBe(0);
    // Sent again for stripeClientSettings.paceWaitMs (5 s), always under the purchase's one key;
    // stripe-node itself retries a 429 only when Stripe asks (Stripe-Should-Retry).
    expect(new Set(stripe.failedKeys())).toEqual(
      new Set([`${made.answer.body.purchase_id}:authorize`]),
    );
    const intents = stripe.intents.size;
    const again = await buy(token, made.quote.quote_id, made.key);
    expect([again.status, again.body.purchase_id, again.body.status]).toEqual([
      202,
      made.answer.body.purchase_id,
      "processing",
    ]);
    expect(stripe.intents.size).toBe(intents);
    stripe.failNextWrites(0, 429);
  });
});

describe("a saved card that wants authentication, and Stripe failing the release (audit 2026-12-07)", () => {
  it("the purchase is still answered requires_person (a checkout link for the person, never a 500); reconciliation releases the hold later, once", async () => {
    const { token, person, agent } = await personWithStripeCard(testCards.requiresAuthentication);
    const quote = await quoteOf(token, [(await directItem()).id]);
    const answered = await buyQuote(
      { db: db(), now: new Date(), clientId: agent.id, personId: person.id },
      { quote_id: quote.quote_id, idempotency_key: randomUUID() },
      // The cancel and both of the client's retries fail.
      { afterAuthorize: async () => stripe.failNextWrites(3, 500) },
    );
    expect(answered.result).toMatchObject({ status: 402 });
    expect(await db().purchase.findFirstOrThrow({ where: { personId: person.id } })).toMatchObject({
      status: "requires_person",
      reason: "authentication_required",
    });
    const payment = await db().payment.findFirstOrThrow({
      where: { purchase: { personId: person.id } },
    });
    expect(stripe.intents.get(payment.processorPaymentId!)?.status).not.toBe("canceled");
    await reconcilePurchases(db(), { now: new Date(), provider: paymentProvider() });
    expect(stripe.intents.get(payment.processorPaymentId!)?.status).toBe("canceled");
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      status: "voided",
    });
  });
});
