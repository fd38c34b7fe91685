/**
 * A partner names the host its webhooks go to, and so the name server that answers for it. One that
 * never answers must cost a delivery round its attempts' deadline and nothing else: the lookup runs
 * from the event loop (c-ares, server/platform/http/outbound-host.ts), never on libuv's thread pool,
 * where getaddrinfo would hold a thread a lookup for as long as the system resolver waits and queue
 * every other lookup of the process behind it (the SMTP relay's, Stripe's); and the attempt's 10
 * seconds include the lookup.
 */
import { afterEach, describe, expect, it } from "vitest";
import { useRebindingResolver } from "../../testing/rebinding-resolver";
import { createPartner, createWebhookEndpoint } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { createDnsResolver, setHostResolver } from "../../platform/http/outbound-host";
import { captureLogLines } from "../../testing/log-capture";
import { startSilentDns, timeThreadPool } from "../../testing/silent-dns";
import { startReceiver } from "../../testing/webhook-receiver";
import { deliverDueWebhooks } from "./deliver";
import { sendTestEvent } from "./endpoints";
import { postWebhook } from "./post-webhook";
import { attemptTimeoutMs } from "./retry-schedule";

afterEach(() => setHostResolver(undefined));

/** A test event due to each of `urls`, endpoints of one partner. */
const dueTestEvents = async (urls: readonly string[]) => {
  const clientId = (await createPartner()).client.id;
  const now = new Date();
  for (const url of urls) {
    const { owner, endpointId } = await createWebhookEndpoint(url, clientId);
    await sendTestEvent(db(), owner, endpointId, now);
  }
  return { clientId, now };
};

describe("a webhook host whose name server never answers", () => {
  it("holds no libuv thread while a round's lookups wait, and each attempt fails with the generic error", async () => {
    const dns = await startSilentDns();
    setHostResolver(createDnsResolver({ servers: [dns.server] }));
    const logs = captureLogLines();
    try {
      const urls = Array.from({ length: 12 }, (_, i) => `https://slow-dns-${i}.example/hooks`);
      const { clientId, now } = await dueTestEvents(urls);
      const started = performance.now();
      const round = deliverDueWebhooks({ db: db(), now, rules: "public-only" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(dns.queries()).toBeGreaterThanOrEqual(urls.length);
      // Twelve lookups wait on a silent server; the pool is free: a system lookup and scrypt answer at once.
      expect(await timeThreadPool()).toBeLessThan(1000);
      expect((await round).failed).toBe(urls.length);
      // c-ares gives up (1 s, then 2 tries) well inside the attempt's deadline.
      expect(performance.now() - started).toBeLessThan(attemptTimeoutMs);
      const deliveries = await db().webhookDelivery.findMany({
        where: { endpoint: { clientId } },
      });
      expect(deliveries.map((delivery) => delivery.lastError)).toEqual(
        urls.map(() => "connection failed"),
      );
      expect(logs.text()).toContain("does not resolve");
    } finally {
      await dns.close();
    }
  }, 20_000);

  it("a lookup that never ends is cut at the attempt's deadline: timed out", async () => {
    setHostResolver(() => new Promise(() => undefined));
    const started = performance.now();
    const result = await postWebhook({
      url: "https://never-resolves.example/hooks",
      body: "{}",
      headers: {},
      rules: "public-only",
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ ok: false, status: null, error: "timed out" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

/**
 * B2-24, DNS rebinding: a name that answers one address when checked and another when connected to.
 * The attempt resolves once and connects to the address it checked (`pinnedLookup`); a second
 * resolution, wherever it points, is never asked for.
 */
describe("a webhook host whose name answers differently from one lookup to the next", () => {
  it("connects to the address it checked, not to what the name answers next", async () => {
    const receiver = await startReceiver();
    try {
      const lookups = useRebindingResolver("127.0.0.1", "169.254.169.254");
      const result = await postWebhook({
        url: `http://rebinding.example:${new URL(receiver.url).port}/hooks`,
        body: "{}",
        headers: {},
        rules: "developer-machine",
      });
      expect(result).toEqual({ ok: true, status: 200 });
      expect(receiver.received).toHaveLength(1);
      expect(lookups).toEqual(["rebinding.example"]);
    } finally {
      await receiver.close();
    }
  });

  it("a public answer when checked, loopback afterwards: nothing reaches loopback", async () => {
    const receiver = await startReceiver();
    try {
      const lookups = useRebindingResolver("93.184.215.14", "127.0.0.1");
      const result = await postWebhook({
        url: `http://rebinding.example:${new URL(receiver.url).port}/hooks`,
        body: "{}",
        headers: {},
        rules: "public-only",
        // The public address does not answer here (no route out, or a silent one): fail fast.
        timeoutMs: 1_000,
      });
      expect(result.ok).toBe(false);
      expect(receiver.received).toHaveLength(0);
      expect(lookups).toEqual(["rebinding.example"]);
    } finally {
      await receiver.close();
    }
  });

  it("a refused answer when checked is refused, whatever the name answers next", async () => {
    const receiver = await startReceiver();
    try {
      const lookups = useRebindingResolver("169.254.169.254", "127.0.0.1");
      const result = await postWebhook({
        url: `http://rebinding.example:${new URL(receiver.url).port}/hooks`,
        body: "{}",
        headers: {},
        rules: "developer-machine",
      });
      expect(result).toMatchObject({ ok: false, status: null, error: "connection failed" });
      expect(result.ok === false && result.detail).toContain("resolves to 169.254.169.254");
      expect(receiver.received).toHaveLength(0);
      expect(lookups).toEqual(["rebinding.example"]);
    } finally {
      await receiver.close();
    }
  });
});
