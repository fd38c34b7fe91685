/**
 * Redis back after an outage (RELIABILITY B5-08): a real redis-server, killed mid-use and started
 * again on the same port. While it is down memory counts (fail open, ADR 0080); once it answers
 * again, within the 5-second pause and ioredis's reconnection, the counts are Redis's again, shared
 * by every instance, and both the outage and its end are logged once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "./observability/log";
import { connectRateLimitStore, consumeRateLimit, createLimiters } from "./rate-limit";
import { memoryDecisions } from "../testing/rate-limit-memory";

const freePort = async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

/** A redis-server of this test's own (Debian's package), keeping nothing on disk. */
const startRedis = async (port: number) => {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const probe = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on("error", () => undefined);
  for (let tries = 0; ; tries++) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      probe.disconnect();
      if (tries > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { child, probe };
};

const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

const logged: string[] = [];
let port: number;
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  captureLogs((line) => void logged.push(line));
  port = await freePort();
  redis = await startRedis(port);
});
afterAll(async () => {
  redis.probe.disconnect();
  await kill(redis.child);
});

const messages = () =>
  logged
    .filter((line) => line.includes('"msg":"rate limits: Redis'))
    .map((line) => JSON.parse(line).msg);

const outageStarted =
  "rate limits: Redis is slow or unreachable; counting per process in memory until it answers again";
const outageEnded = "rate limits: Redis answers again; counting there, shared by every instance";

describe("rate limits when Redis comes back after an outage", () => {
  it("count in memory while it is down, then in Redis again, and log the outage and its end", async () => {
    const prefix = `${process.env.RATE_LIMIT_PREFIX}:return`;
    // A limit never reached here: the test is about where calls are counted, not about refusals.
    const policies = [{ name: "minute", points: 1_000_000, duration: 60 }];
    // Two instances' limiters on one Redis (two connections).
    const urls = [`redis://127.0.0.1:${port}`, `redis://127.0.0.1:${port}/0`];
    // Redis's deadline a second, not 25 ms: what is tested is where calls are counted before and
    // after the outage, also on a loaded machine (the 25 ms fall-back: rate-limit-redis-down.integration.test.ts).
    const [first, second] = urls.map((redisUrl) =>
      createLimiters({ redisUrl, prefix, policies, deadlineMs: 1_000 }),
    );
    const counted = async () => Number(await redis.probe.get(`${prefix}:minute:client`));
    // The connections open first: a fresh one may take longer than the 25 ms deadline on a busy machine.
    for (const url of urls) await connectRateLimitStore(url);

    await consumeRateLimit("client", first);
    await consumeRateLimit("client", second);
    expect(await counted()).toBe(2);

    redis.probe.disconnect();
    await kill(redis.child);
    const before = await memoryDecisions();
    for (let i = 0; i < 3; i++) await consumeRateLimit("client", first);
    expect(await memoryDecisions()).toBe(before + 3);

    redis = await startRedis(port); // a fresh server: its counts start again
    // Memory alone for the 5-second pause, then Redis once ioredis has reconnected: until both
    // instances' calls land there (a late one given the 250 ms after which Redis counts as silent).
    const deadline = Date.now() + 20_000;
    let isShared = false;
    while (!isShared && Date.now() < deadline) {
      const countedBefore = await counted();
      await consumeRateLimit("client", first);
      await consumeRateLimit("client", second);
      await new Promise((resolve) => setTimeout(resolve, 300));
      isShared = messages().includes(outageEnded) && (await counted()) === countedBefore + 2;
    }
    expect(isShared).toBe(true);
    // The outage was logged when it started, and its end after it (a busy machine may log another).
    expect(messages()[0]).toBe(outageStarted);
    expect(messages().indexOf(outageEnded)).toBeGreaterThan(0);
  }, 40_000);
});
