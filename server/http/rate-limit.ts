/**
 * Partner rate limits: 120 requests a minute and 3,000 an hour per client (per client and person
 * for linked tokens), fixed windows, counted in Redis when REDIS_URL is set so every instance shares
 * them. If Redis fails the limiter falls back to counting in memory (rate-limiter-flexible's
 * insurance limiter): the API keeps serving; money rules never depend on Redis.
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { env } from "../env";
import { AppError } from "../errors";

export type Policy = { name: "minute" | "hour"; points: number; duration: number };
export const partnerPolicies: Policy[] = [
  { name: "minute", points: 120, duration: 60 },
  { name: "hour", points: 3000, duration: 3600 },
];

export type Limiter = { policy: Policy; limiter: RateLimiterAbstract };

/** One limiter per policy; counted in Redis at `redisUrl` when given, in memory otherwise. */
export const createLimiters = (options: { redisUrl?: string; policies?: Policy[]; prefix: string }): Limiter[] => {
  const { redisUrl: url, policies = partnerPolicies, prefix } = options;
  const redis = url
    ? new Redis(url, { maxRetriesPerRequest: 0, connectTimeout: 500, commandTimeout: 200 })
    : undefined;
  redis?.on("error", () => undefined); // the insurance limiter takes over; ioredis reconnects by itself
  return policies.map((policy) => {
    const options = { keyPrefix: `${prefix}:${policy.name}`, points: policy.points, duration: policy.duration };
    const memory = new RateLimiterMemory(options);
    const limiter = redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
    return { policy, limiter };
  });
};

let shared: Limiter[] | undefined;
const limiters = () => (shared ??= createLimiters({ redisUrl: env().REDIS_URL, prefix: process.env.RATE_LIMIT_PREFIX ?? "rl" }));

export type RateLimitState = { policy: Policy; remaining: number; resetSeconds: number }[];

const state = (policy: Policy, result: RateLimiterRes) => ({
  policy,
  remaining: Math.max(0, result.remainingPoints),
  resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
});

/** Consumes one request for `key` in every window; throws 429 when a window is spent. */
export const consumeRateLimit = async (key: string, using: Limiter[] = limiters()): Promise<RateLimitState> => {
  const states: RateLimitState = [];
  for (const { policy, limiter } of using) {
    try {
      states.push(state(policy, await limiter.consume(key)));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const spent = state(policy, rejection as RateLimiterRes);
      throw new AppError("rate_limited", {
        message: `Rate limit of ${policy.points} requests per ${policy.name} reached; retry after ${spent.resetSeconds} seconds.`,
        retryAfter: spent.resetSeconds,
        details: { violated_policies: [policy.name] },
        headers: rateLimitHeaders([...states, spent]),
      });
    }
  }
  return states;
};

/** RateLimit-Policy and RateLimit (IETF draft) plus the widely used RateLimit-Limit/-Remaining/-Reset. */
export const rateLimitHeaders = (states: RateLimitState): Record<string, string> => {
  if (!states.length) return {};
  const tightest = states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    "RateLimit-Policy": partnerPolicies.map((p) => `"${p.name}";q=${p.points};w=${p.duration}`).join(", "),
    RateLimit: states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`).join(", "),
    "RateLimit-Limit": String(tightest.policy.points),
    "RateLimit-Remaining": String(tightest.remaining),
    "RateLimit-Reset": String(tightest.resetSeconds),
  };
};
