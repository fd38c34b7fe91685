/**
 * Keeps the service's requests to Stripe under Stripe's rate limits, all instances together (ADR
 * 0139). Stripe counts an account's API requests a second: 100 in live mode and 25 in test mode
 * overall, and 25 on each endpoint (a method and path, `POST /v1/payment_intents`) unless its
 * documentation says otherwise; a request beyond is answered 429 and not processed. A sale in which
 * thousands of watches buy at once reaches that within a second, and a purchase whose PaymentIntent
 * keeps meeting 429 is not made (purchase-stripe-refusals.integration.test.ts).
 *
 * So every request the `stripe` client sends first takes a turn in two one-second windows: its
 * account's and its endpoint's, by default at 80% of Stripe's limits. They are counted in Redis, so
 * the instances share them (in this process's memory when Redis is slow or absent, as every rate
 * limit here). A request finding a window spent waits for the next one. A 429 that comes back all
 * the same (another program on the account, or instances counting alone while Redis is down) is
 * sent again after a short backoff: Stripe did not process it, and it carries its Idempotency-Key.
 * Waiting ends after `maxWaitMs`: the request then goes, or its 429 goes back to the client, as
 * without pacing. `slowestCallMs` (processor-budget.ts) counts that wait in every try.
 */
import { createHash } from "node:crypto";
import { RateLimiterRes } from "rate-limiter-flexible";
import Stripe from "stripe";
import { connectRateLimitStore, createLimiters, type Limiter } from "../platform/rate-limit";
import { count } from "../platform/observability/metrics";

export type StripePace = {
  /** Requests a second to the account, and to one endpoint. */
  accountPerSecond: number;
  endpointPerSecond: number;
  /** How long one try may wait for its turn (and for 429s to pass) before it goes as it is. */
  maxWaitMs: number;
  redisUrl?: string;
  prefix: string;
};

/** Stripe's documented limits a second, by the key's mode, and the share of them the service uses. */
const stripeLimits = { live: 100, test: 25, endpoint: 25 } as const;
const share = 0.8;

/** The defaults for `secretKey`'s mode: 80 and 20 a second with a live key, 20 and 20 with a test key. */
export const defaultStripePace = (secretKey: string) => ({
  accountPerSecond: Math.floor(
    (/^(sk|rk)_live_/.test(secretKey) ? stripeLimits.live : stripeLimits.test) * share,
  ),
  endpointPerSecond: Math.floor(stripeLimits.endpoint * share),
});

/**
 * The endpoint a request counts against: its method and path with the ids taken out
 * (`POST /v1/payment_intents/pi_3Mt…/capture` -> `POST /v1/payment_intents/{id}/capture`). An id is
 * a segment with a prefix and an underscore holding a digit or a capital (`pi_3Mt…`, `cus_Q9…`);
 * resource names are lower-case words (`payment_intents`).
 */
export const endpointOf = (method: string, path: string) =>
  `${method} ${path
    .split("?")[0]
    .split("/")
    .map((segment) => (/^[a-z]+_(?=[\w]*[A-Z0-9])\w+$/.test(segment) ? "{id}" : segment))
    .join("/")}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** A few ms of spread, so the waiters of a spent window do not all ask again at the same instant. */
const jitter = () => Math.floor(Math.random() * 20);

type Request = Parameters<Stripe.HttpClient["makeRequest"]>;
type Response = Awaited<ReturnType<Stripe.HttpClient["makeRequest"]>>;

/** A 429 of Stripe's rate limiters (not a lock timeout, which the client itself retries). */
const isRateLimited = (response: Response) =>
  response.getStatusCode() === 429 && response.getHeaders()["stripe-should-retry"] === undefined;

/** The HTTP client for the `stripe` package: Node's, with each request paced as above. */
export const pacedHttpClient = (pace: StripePace, secretKey: string): Stripe.HttpClient => {
  const window = (name: string, points: number) =>
    createLimiters({
      redisUrl: pace.redisUrl,
      prefix: `${pace.prefix}:${name}`,
      policies: [{ name: "second", points, duration: 1 }],
      name: `stripe_${name}`,
    })[0];
  // Opened now, not by the first burst (which would find it still connecting and count alone in
  // memory); the sweep thread, which pays for the watches, does not open it at start as the server does.
  void connectRateLimitStore(pace.redisUrl);
  const account = window("account", pace.accountPerSecond);
  const endpoints = window("endpoint", pace.endpointPerSecond);
  // Stripe's limits are an account's: the key names the account (and its mode) without being stored.
  const accountKey = createHash("sha256").update(secretKey).digest("hex").slice(0, 16);

  /** 0 when the window gave a turn; otherwise how long until it opens again. */
  const take = async (limit: Limiter, key: string) => {
    try {
      await limit.limiter.consume(key);
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
      return 0; // pacing never stops a payment: a failing count lets the request go
    }
  };
  const turn = async (endpoint: string, deadline: number) => {
    const endpointKey = `${accountKey}:${endpoint}`;
    for (let waits = 0; Date.now() < deadline; waits++) {
      let waitMs = await take(endpoints, endpointKey);
      if (waitMs === 0) {
        waitMs = await take(account, accountKey);
        if (waitMs === 0) return;
        await endpoints.limiter.reward(endpointKey).catch(() => undefined);
      }
      if (waits === 0) count("shopping_stripe_paced_total", { reason: "window" });
      await sleep(Math.min(waitMs + jitter(), deadline - Date.now()));
    }
  };

  const node = Stripe.createNodeHttpClient();
  class PacedHttpClient extends Stripe.HttpClient {
    getClientName() {
      return node.getClientName();
    }
    async makeRequest(...request: Request): Promise<Response> {
      const [, , path, method] = request;
      const deadline = Date.now() + pace.maxWaitMs;
      const endpoint = endpointOf(method, path);
      for (let retry = 0; ; retry++) {
        await turn(endpoint, deadline);
        const response = await node.makeRequest(...request);
        const backoffMs = Math.min(2_000, 100 * 2 ** retry) + jitter();
        if (!isRateLimited(response) || Date.now() + backoffMs >= deadline) return response;
        await response.toJSON().catch(() => undefined); // read, so the connection is reused
        count("shopping_stripe_paced_total", { reason: "rate_limited" });
        await sleep(backoffMs);
      }
    }
  }
  return new PacedHttpClient();
};
