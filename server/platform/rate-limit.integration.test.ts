/**
 * Partner rate limits through the real REST wrapper (Redis when REDIS_URL is set, as in CI), and
 * the limiter's fall-back to memory when Redis is unreachable.
 */
import { describe, expect, it } from "vitest";
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
    expect(limited.headers.get("ratelimit")).toMatch(/"minute";r=0;t=\d+/);
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
