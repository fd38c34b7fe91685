/**
 * Partner rate limits through the real REST wrapper (Redis when REDIS_URL is set, as in CI), and
 * the limiter's fall-back to memory when Redis is unreachable.
 */
import { describe, expect, it } from "vitest";
import { unlessMemoryDecided } from "../testing/rate-limit-memory";
import { createPartner } from "../../prisma/factories";
import { consumeRateLimit, createLimiters } from "./rate-limit";
import { operationHandler } from "@/server/edges/rest/rest-router";

const categories = operationHandler("GET /api/v1/categories");

const call = (token: string) =>
  categories(
    new Request("http://localhost:3000/api/v1/categories", {
      headers: { authorization: `Bearer ${token}` },
    }),
  );

/** Limiters counted in the test's Redis under their own prefix. */
const limitersOf = (
  prefix: string,
  policies: { name: string; points: number; duration: number }[],
) =>
  createLimiters({
    redisUrl: process.env.REDIS_URL,
    prefix: `${process.env.RATE_LIMIT_PREFIX}:${prefix}`,
    policies,
  });

describe("partner rate limits", () => {
  it("the 121st request in a minute is 429 with Retry-After; another client is unaffected", async () => {
    const noisy = await (await createPartner()).token();
    const quiet = await (await createPartner()).token();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await call(noisy)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const limited = await call(noisy);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    const minute = limited.headers.get("ratelimit")?.match(/"minute";r=0;t=(\d+)/);
    expect(minute).not.toBeNull();
    // Retry-After is never sooner than the spent window's reset (RELIABILITY C2).
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(Number(minute?.[1]));
    // The refusal publishes the policies too, as every partner answer does.
    expect(limited.headers.get("ratelimit-policy")).toBe(
      '"minute";q=120;w=60, "hour";q=3000;w=3600',
    );
    const body = await limited.json();
    expect(body.error).toMatchObject({ code: "rate_limited", violated_policies: ["minute"] });
    expect((await call(quiet)).status).toBe(200);
  }, 60_000);

  it("the hourly window: request 3,001 is refused with violated policy hour", async () => {
    const limiters = limitersOf("hour", [
      { name: "minute", points: 1_000_000, duration: 60 },
      { name: "hour", points: 3000, duration: 3600 },
    ]);
    for (let i = 0; i < 3000; i++) await consumeRateLimit("client-hour", limiters);
    await expect(consumeRateLimit("client-hour", limiters)).rejects.toMatchObject({
      code: "rate_limited",
      options: { details: { violated_policies: ["hour"] } },
    });
  }, 60_000);

  it("asks every window at once, and a refused request spends none of them", async () => {
    const limiters = limitersOf("refused", [
      { name: "minute", points: 2, duration: 60 },
      { name: "hour", points: 5, duration: 3600 },
    ]);
    const [minute, hour] = limiters;
    for (let i = 0; i < 2; i++) await consumeRateLimit("refused", limiters);
    for (let i = 0; i < 3; i++)
      await expect(consumeRateLimit("refused", limiters)).rejects.toMatchObject({
        code: "rate_limited",
        options: { retryAfter: expect.any(Number), details: { violated_policies: ["minute"] } },
      });
    // The three refused requests were given back to the hour: it holds the two that passed.
    expect((await hour.limiter.peek("refused"))?.consumedPoints).toBe(2);
    expect((await minute.limiter.peek("refused"))?.consumedPoints).toBeGreaterThanOrEqual(2);
  });

  it("counts in fixed windows that start at a key's first request: a full window, then a full one again once it resets (a burst of twice the limit across the boundary is allowed: ADR 0080)", async () => {
    const limiters = limitersOf("boundary", [{ name: "second", points: 5, duration: 1 }]);
    await unlessMemoryDecided(async () => {
      const key = `boundary-${Math.random()}`;
      for (let i = 0; i < 5; i++) await consumeRateLimit(key, limiters);
      const refused = await consumeRateLimit(key, limiters).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "rate_limited", options: { retryAfter: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const next = [];
      for (let i = 0; i < 5; i++) next.push(await consumeRateLimit(key, limiters));
      expect(next.map((states) => states[0].remaining)).toEqual([4, 3, 2, 1, 0]);
      await expect(consumeRateLimit(key, limiters)).rejects.toMatchObject({
        code: "rate_limited",
      });
    });
  });

  it("keeps serving, counting in memory, when Redis is unreachable", async () => {
    const limiters = createLimiters({
      redisUrl: "redis://127.0.0.1:1",
      prefix: "down",
      policies: [{ name: "minute", points: 3, duration: 60 }],
    });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await consumeRateLimit("k", limiters));
    expect(results[2][0].remaining).toBe(0);
    await expect(consumeRateLimit("k", limiters)).rejects.toMatchObject({ code: "rate_limited" });
  });
});
