/**
 * The limiter's fall-back when Redis is slow: one short deadline, then memory (and memory alone
 * for a few seconds), so a 2-second Redis adds well under 100 ms to a request. And a partner's
 * linked-token traffic counts toward the partner's own limit as well as per person.
 */
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createLinkingPartner, createPerson } from "../../prisma/factories";
import { issueAccessToken } from "../auth/tokens";
import { db } from "./db";
import { connectRateLimitStore, consumeRateLimit, createLimiters } from "./rate-limit";
import { memoryDecisions } from "../testing/rate-limit-memory";
import { operationHandler } from "@/server/edges/rest/rest-router";

const categories = operationHandler("GET /api/v1/categories");

/** A TCP proxy to Redis that holds every chunk, both ways, for `delayMs` (which a test may change). */
const slowRedis = async (delayMs: number) => {
  const delay = { ms: delayMs };
  const target = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on("error", () => from.destroy());
      from.on("data", (chunk) => setTimeout(() => to.writable && to.write(chunk), delay.ms));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    delay,
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
};

const proxies: { stop: () => void }[] = [];
afterAll(() => proxies.forEach((proxy) => proxy.stop()));

describe("rate limiter with a slow Redis", () => {
  it("a request waits at most one short deadline, then memory counts (still enforcing the limit)", async () => {
    const proxy = await slowRedis(2000);
    proxies.push(proxy);
    const limiters = createLimiters({
      redisUrl: proxy.url,
      prefix: `${process.env.RATE_LIMIT_PREFIX}:slow`,
      policies: [
        { name: "minute", points: 3, duration: 60 },
        { name: "hour", points: 100, duration: 3600 },
      ],
    });
    const started = performance.now();
    await consumeRateLimit("slow-client", limiters);
    const first = performance.now() - started;
    expect(first).toBeLessThan(100);
    for (let i = 0; i < 2; i++) {
      const again = performance.now();
      await consumeRateLimit("slow-client", limiters);
      expect(performance.now() - again).toBeLessThan(100);
    }
    await expect(consumeRateLimit("slow-client", limiters)).rejects.toMatchObject({
      code: "rate_limited",
    });
  });

  it("a window Redis said is spent stays refused when Redis then misses its deadline, and each memory decision is counted", async () => {
    const proxy = await slowRedis(0);
    proxies.push(proxy);
    const name = `spent-${Date.now()}`;
    const limiters = createLimiters({
      redisUrl: proxy.url,
      prefix: `${process.env.RATE_LIMIT_PREFIX}:${name}`,
      policies: [{ name: "minute", points: 2, duration: 60 }],
      name,
    });
    const decidedByMemory = () => memoryDecisions({ limit: name });
    // The connection open first: a fresh one may take longer than the deadline on a busy machine.
    await connectRateLimitStore(proxy.url);
    // Until the window is refused: the third request, unless a call missed the deadline on a busy
    // machine and memory let it through (Redis still counted it).
    let allowed = 0;
    let refusal: unknown;
    while (refusal === undefined && allowed < 6)
      await consumeRateLimit("spent-client", limiters).then(
        () => allowed++,
        (error: unknown) => (refusal = error),
      );
    expect(refusal).toMatchObject({ code: "rate_limited" });
    expect(allowed).toBeGreaterThanOrEqual(2);
    expect(allowed).toBeLessThan(6);
    const before = await decidedByMemory(); // 0 unless a call through the proxy was that slow
    proxy.delay.ms = 2000;
    // Memory decides now (Redis misses the deadline, then is paused), and knows the window is spent.
    for (let i = 0; i < 3; i++)
      await expect(consumeRateLimit("spent-client", limiters)).rejects.toMatchObject({
        code: "rate_limited",
      });
    expect(await decidedByMemory()).toBe(before + 3);
    // A client Redis never refused is still let through by memory (fail open).
    await consumeRateLimit("other-client", limiters);
    expect(await decidedByMemory()).toBe(before + 4);
  });
});

describe("linked tokens", () => {
  it("count toward the partner's own per-client limit, not only per person", async () => {
    const { client } = await createLinkingPartner();
    const tokens = [];
    for (let i = 0; i < 3; i++) {
      const { person } = await createPerson();
      tokens.push(
        (
          await issueAccessToken(db(), {
            clientId: client.id,
            personId: person.id,
            scopes: ["catalog:read"],
            now: new Date(),
          })
        ).token,
      );
    }
    const call = (token: string) =>
      categories(
        new Request("http://localhost:3000/api/v1/categories", {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const statuses: number[] = [];
    // 3 people x 41 requests: each person stays under 120 a minute, the partner together does not.
    for (let i = 0; i < 41; i++)
      for (const token of tokens) statuses.push((await call(token)).status);
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(120)).toEqual([429, 429, 429]);
  }, 120_000);
});
