/**
 * Redis down (a closed port) or stalled (a listener that accepts and never answers): rate limits
 * are counted per process in memory, each request decided within 50 ms, the outage logged once,
 * and the API answers as usual (never a 500). Real sockets, no stand-in for the limiter.
 */
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "./observability/log";
import { consumeRateLimit, createLimiters } from "./rate-limit";

/** A port nothing listens on: bound once, then released. */
const closedPort = async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

/** Accepts connections and never sends a byte back: a Redis that hangs. */
const stalledRedis = async () => {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
};

const downUrl = `redis://:not-a-real-password@127.0.0.1:${await closedPort()}`;
// The partner limiter reads REDIS_URL on first use: every /api/v1 call in this file meets the dead Redis.
process.env.REDIS_URL = downUrl;

const stalled = await stalledRedis();
afterAll(() => stalled.stop());

const logged: string[] = [];
beforeAll(() => captureLogs((line) => void logged.push(line)));
afterEach(() => void logged.splice(0));

const outageLines = () =>
  logged.filter((line) => line.includes('"msg":"rate limits: Redis')).map((line) => [line]);

const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now();
  const result = await work().catch((error: unknown) => error);
  return { ms: performance.now() - started, result };
};

describe.each([
  ["down (closed port)", () => downUrl.replace("not-a-real-password", "other")],
  ["stalled (never answers)", () => stalled.url],
])("rate limiter with Redis %s", (_name, url) => {
  it("decides each request within 50 ms in memory, still enforces the limit, logs the outage once without the password", async () => {
    const limiters = createLimiters({
      redisUrl: url(),
      prefix: `${process.env.RATE_LIMIT_PREFIX}:down`,
      policies: [{ name: "minute", points: 5, duration: 60 }],
    });
    const calls = [];
    for (let i = 0; i < 8; i++)
      calls.push(await timed(() => consumeRateLimit("client-a", limiters)));
    expect(calls.map((call) => Math.round(call.ms)).filter((ms) => ms >= 50)).toEqual([]);
    expect(calls.slice(0, 5).every((call) => !(call.result instanceof Error))).toBe(true);
    expect(calls.slice(5).map((call) => (call.result as { code?: string }).code)).toEqual([
      "rate_limited",
      "rate_limited",
      "rate_limited",
    ]);
    // Redis is judged failed once it has been silent 250 ms; then it is skipped, and that is logged once.
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (let i = 0; i < 3; i++) await consumeRateLimit("client-b", limiters);
    expect(outageLines()).toHaveLength(1);
    expect(String(outageLines()[0][0])).not.toContain("not-a-real-password");
  });

  it("has concurrent requests share one wait for the connection (no listener piled up per request)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const limiters = createLimiters({
        redisUrl: `${url()}/3`, // a connection of its own, not yet ready
        prefix: `${process.env.RATE_LIMIT_PREFIX}:down-burst`,
        policies: [{ name: "minute", points: 100, duration: 60 }],
      });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => consumeRateLimit(`client-${i}`, limiters)),
      );
      // Each client's first request, counted once in memory: 99 of its 100 left.
      expect(results.map(([minute]) => minute.remaining)).toEqual(Array(30).fill(99));
      // Warnings are emitted on a later tick; the outage this connection logs after 250 ms of
      // silence is then this test's, cleared after it, not the next one's.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("the API with Redis down", () => {
  it("answers 200 with RateLimit headers, then 429 past the limit, never a 500", async () => {
    const { createPartner } = await import("../../prisma/factories");
    const categories = (await import("../edges/rest/rest-router")).operationHandler(
      "GET /api/v1/categories",
    );
    const token = await (await createPartner()).token();
    const statuses: number[] = [];
    let limit = "";
    for (let i = 0; i < 121; i++) {
      const response = await categories(
        new Request("http://localhost:3000/api/v1/categories", {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      statuses.push(response.status);
      limit ||= response.headers.get("ratelimit-limit") ?? "";
    }
    expect(limit).toBe("120");
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    expect(outageLines()).toHaveLength(1);
  }, 120_000);

  it("buys once with the money rules held in PostgreSQL (RELIABILITY rule 6): the key replays, the quote is bought once, one hold", async () => {
    const { agentWithPerson, buy, directItem, quoteOf } =
      await import("../testing/agent-purchases");
    const { sandboxLedger } = await import("../testing/purchase-ledger");
    const { randomUUID } = await import("node:crypto");
    const { token } = await agentWithPerson();
    const { quote_id: quoteId } = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const bought = await buy(token, quoteId, key);
    expect(bought.status).toBe(201);
    const replayed = await buy(token, quoteId, key);
    expect([replayed.status, replayed.headers.get("idempotent-replayed"), replayed.text]).toEqual([
      201,
      "true",
      bought.text,
    ]);
    const again = await buy(token, quoteId);
    expect([again.status, again.body.error.code]).toEqual([409, "quote_already_purchased"]);
    expect(await sandboxLedger(bought.body.purchase_id)).toMatchObject({ holds: 1, captures: 0 });
  }, 60_000);
});
