/**
 * Rate limits, defined one way (`createLimiters`: fixed-window policies under a prefix) and
 * consumed one way (`consumeRateLimit`: 429 `rate_limited` with Retry-After and RateLimit headers).
 * Partners: 120 requests a minute and 3,000 an hour per client, and for linked tokens per client
 * and person as well. Counted in Redis when REDIS_URL is set, so every instance shares them.
 *
 * Redis is an optimisation, never a dependency: each Redis call gets one short deadline (25 ms, so a request is decided within the 50 ms budget even on a busy machine);
 * a call that misses it is decided by memory instead, and a Redis that failed, or is still silent
 * 250 ms later, is left alone for the next 5 seconds (every limiter of that connection), so a slow
 * or dead Redis costs a request at most one deadline. Money rules never depend on Redis.
 */
import { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { env } from "./env";
import { AppError } from "../core/errors";
import { logger } from "./observability/log";
import { count } from "./observability/metrics";
import { withTimeout } from "./with-timeout";

export type Policy = { name: string; points: number; duration: number };
export const partnerPolicies: Policy[] = [
  { name: "minute", points: 120, duration: 60 },
  { name: "hour", points: 3000, duration: 3600 },
];

/** How long one Redis call may take before memory answers instead, and how long Redis is then skipped. */
const redisDeadlineMs = 25;
/** A Redis still silent (or still connecting) this long after a call is treated as failed. */
const redisSilentMs = 250;
const redisPauseMs = 5000;

/**
 * `isDegraded`: memory is counting since Redis last failed; the outage is logged once when it starts
 * and once when Redis answers again. `ready`: while the connection is not ready, the one wait for its `ready` event that every
 * caller shares.
 */
type RedisLink = {
  client: Redis;
  url: string;
  pausedUntil: number;
  isDegraded: boolean;
  ready?: Promise<void>;
};
const links = new Map<string, RedisLink>();
const redisLink = (url: string) => {
  let link = links.get(url);
  if (!link) {
    const client = new Redis(url, {
      // A request's windows are counted by commands sent in the same tick: one write, one reply.
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 500,
      commandTimeout: 1000,
    });
    client.on("error", () => undefined); // memory takes over; ioredis reconnects by itself
    link = { client, url, pausedUntil: 0, isDegraded: false };
    links.set(url, link);
  }
  return link;
};

/** The Redis address without its password, for the log. */
const redactedUrl = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
};

const deadline = <T>(work: Promise<T>, ms: number) => withTimeout(work, ms, "redis deadline");

/**
 * Resolves once the connection is ready (at once when it is), or fails after `redisSilentMs`. The
 * request itself waits only its deadline; a connection that is merely slow to open (a busy
 * machine) then still lands the count in Redis and is not paused, while a dead one fails here.
 * Every caller waits on one listener per connection: a listener each would pile up while Redis is
 * down (Node warns past ten).
 */
const whenReady = (link: RedisLink) => {
  if (link.client.status === "ready") return Promise.resolve();
  link.ready ??= new Promise<void>((resolve) =>
    link.client.once("ready", () => {
      link.ready = undefined;
      resolve();
    }),
  );
  return withTimeout(link.ready, redisSilentMs, "redis not ready");
};

/**
 * After a missed deadline: a failed Redis is skipped at once; a slow one only if its answer has
 * not come within 250 ms. A mere hiccup still lands its count in Redis, so the shared count stays
 * exact and only that one request was decided by memory.
 */
const pauseUnlessAnswered = (link: RedisLink, work: Promise<unknown>) => {
  const pause = () => {
    link.pausedUntil = Date.now() + redisPauseMs;
    if (link.isDegraded) return;
    link.isDegraded = true;
    logger.warn(
      { redis: redactedUrl(link.url) },
      "rate limits: Redis is slow or unreachable; counting per process in memory until it answers again",
    );
  };
  let answered = false;
  work.then(
    () => (answered = true),
    (error: unknown) => (error instanceof RateLimiterRes ? (answered = true) : pause()),
  );
  setTimeout(() => answered || pause(), redisSilentMs).unref();
};

/** Redis answered: counting is shared again; the end of an outage is logged once, as its start was. */
const markAnswered = (link: RedisLink) => {
  if (!link.isDegraded) return;
  link.isDegraded = false;
  logger.info(
    { redis: redactedUrl(link.url) },
    "rate limits: Redis answers again; counting there, shared by every instance",
  );
};

type Operation = (limiter: RateLimiterAbstract) => Promise<RateLimiterRes>;

/**
 * Redis with a deadline, memory when Redis is slow, failing or paused. A spent window
 * (RateLimiterRes) is passed on, and remembered in memory until it resets: a request that memory
 * decides during a Redis hiccup is then refused as Redis would, not let through, so a hiccup lets
 * extra requests through only before the window is known to be spent.
 */
class FailoverLimiter {
  constructor(
    private readonly memory: RateLimiterMemory,
    /** The labels of shopping_rate_limit_memory_decisions_total. */
    private readonly labels: { limit: string; window: string },
    private readonly redis?: { limiter: RateLimiterRedis; link: RedisLink; deadlineMs: number },
  ) {}

  async consume(key: string, points = 1) {
    try {
      return await this.run((limiter) => limiter.consume(key, points));
    } catch (error) {
      if (this.redis && error instanceof RateLimiterRes && error.msBeforeNext > 0)
        await this.memory.block(key, error.msBeforeNext / 1000);
      throw error;
    }
  }

  /** Gives back the points `consume` took (a request another window refused). */
  reward(key: string, points = 1) {
    return this.run((limiter) => limiter.reward(key, points));
  }

  /** The current window of `key` (null when it has none), without consuming. */
  async peek(key: string): Promise<RateLimiterRes | null> {
    const result = await this.run(
      async (limiter) => (await limiter.get(key)) ?? new RateLimiterRes(0, 0, 0, false),
    );
    return result.consumedPoints ? result : null;
  }

  async reset(key: string) {
    await this.run(async (limiter) => {
      await limiter.delete(key);
      return new RateLimiterRes();
    });
    if (this.redis) await this.memory.delete(key); // a spent window memory remembered
  }

  private async run(operation: Operation) {
    const { redis } = this;
    if (!redis) return operation(this.memory);
    if (Date.now() < redis.link.pausedUntil) return this.byMemory(operation);
    const work = whenReady(redis.link).then(() => operation(redis.limiter));
    try {
      const result = await deadline(work, redis.deadlineMs);
      markAnswered(redis.link);
      return result;
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        markAnswered(redis.link); // Redis answered: the window is spent
        throw error;
      }
      pauseUnlessAnswered(redis.link, work);
      return this.byMemory(operation);
    }
  }

  /** Memory in Redis's place (fail open): counted, so an operator sees how often, and a test how many. */
  private byMemory(operation: Operation) {
    count("shopping_rate_limit_memory_decisions_total", this.labels);
    return operation(this.memory);
  }
}

/** `name`: the limit's name, the label of its refusals in /metrics (shopping_rate_limit_refusals_total). */
export type Limiter = { policy: Policy; limiter: FailoverLimiter; name: string };

/**
 * Opens the Redis connection before the service takes requests (waiting at most 250 ms; memory
 * counts if Redis is not there). Opened lazily instead, a fresh instance's first burst would find it
 * still connecting while the first requests load their modules, pause Redis for 5 s, and count
 * that burst in its own memory: each instance would let the whole limit through (found by the
 * OWASP API4 test on a busy machine). `url`: another Redis than REDIS_URL (tests' proxies).
 */
export const connectRateLimitStore = async (url = env().REDIS_URL) => {
  if (url) await whenReady(redisLink(url)).catch(() => undefined);
};

/** Whether the shared Redis answers a PING within `timeoutMs`; undefined when no REDIS_URL is set (the readiness probe). */
export const pingRateLimitStore = (timeoutMs = 1_000): Promise<boolean> | undefined => {
  const url = env().REDIS_URL;
  if (!url) return undefined;
  return deadline(redisLink(url).client.ping(), timeoutMs).then(
    () => true,
    () => false,
  );
};

/** Closes the Redis connections at shutdown (a graceful QUIT; counts already written stay). */
export const closeRateLimitStore = async () => {
  const closing = [...links.values()].map((link) => link.client.quit().catch(() => undefined));
  links.clear();
  await Promise.all(closing);
};

/** One limiter per policy; counted in Redis at `redisUrl` when given (memory when it is slow or down), in memory otherwise. */
export const createLimiters = (options: {
  redisUrl?: string;
  policies?: Policy[];
  prefix: string;
  name?: string;
  /** Redis's deadline a call (25 ms; a test of Redis's return on a loaded machine gives it longer). */
  deadlineMs?: number;
}): Limiter[] => {
  const {
    redisUrl: url,
    policies = partnerPolicies,
    prefix,
    name = "other",
    deadlineMs = redisDeadlineMs,
  } = options;
  const link = url ? redisLink(url) : undefined;
  return policies.map((policy) => {
    const options = {
      keyPrefix: `${prefix}:${policy.name}`,
      points: policy.points,
      duration: policy.duration,
    };
    const memory = new RateLimiterMemory(options);
    const redis = link
      ? {
          limiter: new RateLimiterRedis({ ...options, storeClient: link.client }),
          link,
          deadlineMs,
        }
      : undefined;
    return {
      policy,
      limiter: new FailoverLimiter(memory, { limit: name, window: policy.name }, redis),
      name,
    };
  });
};

/** Limiters for `policies` under `name`, made on first use with this process's REDIS_URL and RATE_LIMIT_PREFIX. */
export const defineLimit = (name: string, policies: Policy[]) => {
  let made: Limiter[] | undefined;
  return () =>
    (made ??= createLimiters({
      redisUrl: env().REDIS_URL,
      prefix: `${process.env.RATE_LIMIT_PREFIX ?? "rl"}:${name}`,
      policies,
      name,
    }));
};

const partnerLimiters = defineLimit("partner", partnerPolicies);

export type RateLimitState = { policy: Policy; remaining: number; resetSeconds: number }[];

const state = (policy: Policy, result: RateLimiterRes) => ({
  policy,
  remaining: Math.max(0, result.remainingPoints),
  resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
});

/**
 * One window counted for a request: the key it counts under, the name its refusals are counted under
 * in /metrics, and how many calls the request stands for (an MCP batch of JSON-RPC messages: each).
 */
type Counted = { key: string; limit: Limiter; label: string; points?: number };

/**
 * Consumes one request in every window of `counted`, all asked at once (one round trip to Redis, not
 * one a window: each was a wait of its own for every partner request). A refused request spends no
 * window (ADR 0080): when one is spent, the others give their point back before the 429, which
 * names every spent window and carries the headers of the refused key's windows.
 */
const consumeWindows = async (counted: Counted[]): Promise<RateLimitState> => {
  const answers = await Promise.allSettled(
    counted.map(({ key, limit, points }) => limit.limiter.consume(key, points)),
  );
  const states: RateLimitState = [];
  const spent: number[] = [];
  for (const [i, answer] of answers.entries()) {
    if (answer.status === "fulfilled") {
      states.push(state(counted[i].limit.policy, answer.value));
      continue;
    }
    // An error, not a spent window (RateLimiterRes): passed on as it came.
    if (answer.reason instanceof Error) throw answer.reason;
    spent.push(i);
    states.push(state(counted[i].limit.policy, answer.reason as RateLimiterRes));
  }
  if (spent.length === 0) return states;
  await Promise.all(
    answers.map((answer, i) =>
      answer.status === "fulfilled"
        ? counted[i].limit.limiter.reward(counted[i].key, counted[i].points)
        : undefined,
    ),
  );
  // The 429's headers say what the windows hold once the points are given back.
  for (const [i, answer] of answers.entries())
    if (answer.status === "fulfilled")
      states[i].remaining = Math.min(
        counted[i].limit.policy.points,
        states[i].remaining + (counted[i].points ?? 1),
      );
  const first = counted[spent[0]];
  count("shopping_rate_limit_refusals_total", { limit: first.label });
  const windows = states.filter((_, i) => counted[i].key === first.key);
  const retryAfter = Math.max(...spent.map((i) => states[i].resetSeconds));
  throw new AppError("rate_limited", {
    message: `Rate limit of ${first.limit.policy.points} requests per ${first.limit.policy.duration} seconds reached; retry after ${retryAfter} seconds.`,
    retryAfter,
    details: { violated_policies: [...new Set(spent.map((i) => counted[i].limit.policy.name))] },
    headers: rateLimitHeaders(windows),
  });
};

/**
 * Consumes one request (`points` calls, for a request that carries several) for `key` in every window;
 * throws 429 when a window is spent (counted under `label`, by default the limit's name).
 */
export const consumeRateLimit = (
  key: string,
  using: Limiter[] = partnerLimiters(),
  label?: string,
  points = 1,
): Promise<RateLimitState> =>
  consumeWindows(using.map((limit) => ({ key, limit, label: label ?? limit.name, points })));

/**
 * A partner's request: counted per client, and for a linked token per client and person too, so
 * the traffic of all the people a partner acts for adds up to the partner's own limit. The
 * tighter of each window is published.
 */
export const consumePartnerRateLimit = async (
  actor: { clientId: string; personId?: string },
  points = 1,
): Promise<RateLimitState> => {
  const limits = partnerLimiters();
  const client = limits.map((limit) => ({ key: actor.clientId, limit, label: limit.name, points }));
  if (!actor.personId) return consumeWindows(client);
  const personKey = `${actor.clientId}:${actor.personId}`;
  const states = await consumeWindows([
    ...client,
    ...limits.map((limit) => ({ key: personKey, limit, label: "person", points })),
  ]);
  const person = states.slice(limits.length);
  return states
    .slice(0, limits.length)
    .map((window, i) => (person[i].remaining < window.remaining ? person[i] : window));
};

/** RateLimit-Policy and RateLimit (IETF draft) plus the widely used RateLimit-Limit/-Remaining/-Reset. */
export const rateLimitHeaders = (states: RateLimitState): Record<string, string> => {
  if (!states.length) return {};
  const tightest = states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    "RateLimit-Policy": states
      .map((s) => `"${s.policy.name}";q=${s.policy.points};w=${s.policy.duration}`)
      .join(", "),
    RateLimit: states
      .map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`)
      .join(", "),
    "RateLimit-Limit": String(tightest.policy.points),
    "RateLimit-Remaining": String(tightest.remaining),
    "RateLimit-Reset": String(tightest.resetSeconds),
  };
};
