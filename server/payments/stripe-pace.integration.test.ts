/**
 * Stripe's rate limits (ADR 0139): the real `stripe` package against the local Stripe-shaped server
 * limiting requests as Stripe does (`limitRate`: at most N in any second, and per endpoint), many
 * PaymentIntents opened at once as a sale's watches open them. Paced, none is refused, also when two
 * instances share the budget in Redis; a 429 that comes all the same is sent again; unpaced, a burst
 * loses payments to 429s.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "../platform/env";
import { connectRateLimitStore } from "../platform/rate-limit";
import { startStripeShapedServer } from "../testing/stripe-shaped-server";
import { paymentProvider } from ".";
import type { PaymentProvider } from "./provider";
import { testCards } from "./sandbox-cards";
import { stripeProvider } from "./stripe";
import { defaultStripePace, endpointOf } from "./stripe-pace";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
const saved = { ...process.env };
const settings = [
  "PAYMENT_PROCESSOR",
  "STRIPE_SECRET_KEY",
  "STRIPE_API_BASE",
  "STRIPE_REQUESTS_PER_SECOND",
  "STRIPE_ENDPOINT_REQUESTS_PER_SECOND",
];

beforeAll(async () => {
  stripe = await startStripeShapedServer();
});
beforeEach(() => stripe.limitRate(undefined));
afterAll(async () => {
  for (const name of settings) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnv();
  await stripe.close();
});

/** The service's own provider (paymentProvider), configured as an operator would. */
const serviceProvider = (pace: { perSecond: number; perEndpoint: number }) => {
  Object.assign(process.env, {
    PAYMENT_PROCESSOR: "stripe",
    // A key of its own per test: the budget is the account's, and each test is a new account.
    STRIPE_SECRET_KEY: `sk_test_${randomUUID().replaceAll("-", "")}`,
    STRIPE_API_BASE: stripe.url,
    STRIPE_REQUESTS_PER_SECOND: String(pace.perSecond),
    STRIPE_ENDPOINT_REQUESTS_PER_SECOND: String(pace.perEndpoint),
  });
  resetEnv();
  return paymentProvider();
};

/** `count` holds opened at once, each with its own key; what each came to. */
const openHolds = (provider: PaymentProvider, count: number) =>
  Promise.allSettled(
    Array.from({ length: count }, () =>
      provider.authorize({
        idempotencyKey: randomUUID(),
        amountCents: 5_000,
        description: "pace test",
        method: { type: "card", number: testCards.succeeds, expMonth: 12, expYear: 2034, cvc: "1" },
      }),
    ),
  );
const authorized = (results: PromiseSettledResult<{ status: string }>[]) =>
  results.filter((result) => result.status === "fulfilled" && result.value.status === "authorized")
    .length;

describe("pacing requests under Stripe's rate limits", () => {
  it("names an endpoint as Stripe counts it: the method and the path without ids", () => {
    expect(endpointOf("POST", "/v1/payment_intents")).toBe("POST /v1/payment_intents");
    expect(endpointOf("POST", "/v1/payment_intents/pi_3MtwBwLkdIwHu7ix28a3tqPa/capture")).toBe(
      "POST /v1/payment_intents/{id}/capture",
    );
    expect(endpointOf("GET", "/v1/payment_intents/pi_3Mtw?expand[]=latest_charge")).toBe(
      "GET /v1/payment_intents/{id}",
    );
    expect(endpointOf("GET", "/v1/payment_intents/search")).toBe("GET /v1/payment_intents/search");
    expect(endpointOf("POST", "/v1/customers/cus_Q9xYz/sources")).toBe(
      "POST /v1/customers/{id}/sources",
    );
    expect(defaultStripePace("sk_live_x")).toEqual({ accountPerSecond: 80, endpointPerSecond: 20 });
    expect(defaultStripePace("rk_test_x")).toEqual({ accountPerSecond: 20, endpointPerSecond: 20 });
  });

  it("unpaced, a burst of 30 holds against a limit of 10 a second loses payments to 429s (what the pace prevents)", async () => {
    stripe.limitRate({ perSecond: 10, perEndpoint: 10 });
    const unpaced = stripeProvider({ secretKey: "sk_test_unpaced", apiBase: stripe.url });
    const results = await openHolds(unpaced, 30);
    expect(stripe.rateLimitedCount()).toBeGreaterThan(0);
    expect(authorized(results)).toBeLessThan(30);
  });

  it("paced at half the limit, 40 holds opened at once are all authorized and Stripe refuses none; they take the seconds the limit asks", async () => {
    stripe.limitRate({ perSecond: 20, perEndpoint: 20 });
    const provider = serviceProvider({ perSecond: 10, perEndpoint: 10 });
    const started = Date.now();
    const results = await openHolds(provider, 40);
    expect(authorized(results)).toBe(40);
    expect(stripe.rateLimitedCount()).toBe(0);
    // Four one-second windows of ten: at least three window changes.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  });

  it("two instances share the budget through Redis: 20 holds each at once, Stripe refuses none, and they take the seconds one budget asks", async () => {
    stripe.limitRate({ perSecond: 20, perEndpoint: 20 });
    const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
    await connectRateLimitStore(redisUrl); // as the service does before it takes requests
    const prefix = `${process.env.RATE_LIMIT_PREFIX}:stripe-shared-${randomUUID()}`;
    const instance = () =>
      stripeProvider({
        secretKey: "sk_test_two_instances",
        apiBase: stripe.url,
        pace: {
          accountPerSecond: 10,
          endpointPerSecond: 10,
          maxWaitMs: 10_000,
          redisUrl,
          prefix,
        },
      });
    const started = Date.now();
    const [first, second] = await Promise.all([
      openHolds(instance(), 20),
      openHolds(instance(), 20),
    ]);
    expect(authorized([...first, ...second])).toBe(40);
    expect(stripe.rateLimitedCount()).toBe(0);
    // Ten a second for both together (four windows), not ten each (two).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  });

  it("a 429 that comes all the same (the budget set above Stripe's limit) is sent again after a backoff, and every hold is authorized once", async () => {
    stripe.limitRate({ perSecond: 10, perEndpoint: 10 });
    const provider = serviceProvider({ perSecond: 1_000, perEndpoint: 1_000 });
    const intents = stripe.intents.size;
    const results = await openHolds(provider, 24);
    expect(stripe.rateLimitedCount()).toBeGreaterThan(0);
    expect(authorized(results)).toBe(24);
    expect(stripe.intents.size - intents).toBe(24);
  });
});
