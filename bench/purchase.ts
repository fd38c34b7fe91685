/**
 * `npm run bench -- purchase [--seconds 20] [--rate 50]`: POST /api/v1/purchases on `npm start` with
 * the sandbox processor, on a fresh database of its own (dropped at the end).
 * - Latency, open loop at --rate: every request buys its own quote with a fresh Idempotency-Key;
 *   the quotes are made before the timed phase. Buyers are sandbox people made by the ops command's
 *   code (saved test card 4242, limits, address), each with an assistant's linked token (agent client,
 *   purchase:write), and at most 8 purchases each (the hourly cap is 10). Reference: POST
 *   /checkout/quotes, open loop at the same rate, same buyers, same run.
 * - Race: 32 connections buy 200 quantity-one items, each through 4 quotes of 4 different people;
 *   the processor's ledger (server/testing/purchase-ledger.ts) must end with exactly one hold per item.
 */
import { randomUUID } from "node:crypto";
import { databaseUrl, withAdmin } from "../server/testing/databases";
import { cpuPerRequest, cpuReading } from "./lib/cpu";
import { machine } from "./lib/machine";
import { runOpenLoop } from "./lib/open-loop";
import { printTable, writeResult } from "./lib/report";
import { startService } from "./lib/service";

const address = {
  name: "Bench Buyer",
  line1: "100 King St W",
  city: "Toronto",
  province: "ON",
  postal_code: "M5X 1A9",
  country: "CA",
};
const perBuyer = 8;
const raceItems = 200;
const quotesPerRaceItem = 4;
const raceConnections = 32;

type Buyer = { personId: string; authorization: string };

/** Runs `work` over `jobs` with `width` in flight. */
const pool = async <T, R>(
  jobs: T[],
  width: number,
  work: (job: T, index: number) => Promise<R>,
) => {
  const results: R[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await work(jobs[index], index);
      }
    }),
  );
  return results;
};

export const benchPurchase = async (options: { seconds: number; rate: number }) => {
  const log = (line: string) => console.log(line);
  const name = `shopping_bench_purchase_${process.pid}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(name);
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    service = await startService({
      databaseUrl: url,
      searchImpl: "memory",
      log,
      env: { PAYMENT_PROCESSOR: "sandbox", SERVICE_ENV: "sandbox" },
    });
    const baseUrl = service.baseUrl;
    process.env.DATABASE_URL = url;
    const { createAgent, createItem, createStore } = await import("../prisma/factories");
    const { createPerson } = await import("../server/edges/ops/account-commands");
    const { issueAccessToken } = await import("../server/auth/tokens");
    const { db } = await import("../server/platform/db");
    const { sandboxLedger } = await import("../server/testing/purchase-ledger");

    const total = Math.round(options.seconds * options.rate);
    const buyerCount = Math.ceil(total / perBuyer) + (raceItems * quotesPerRaceItem) / perBuyer;
    log(`purchase: ${buyerCount} buyers, ${total + raceItems} items of direct stores`);
    const buyers = await pool(
      Array.from({ length: buyerCount }, (_, index) => index),
      4,
      async (index): Promise<Buyer> => {
        const person = await createPerson({
          email: `bench-buyer-${index}-${randomUUID().slice(0, 8)}@example.ca`,
          password: "sandbox password 1",
          verified: true,
          name: "Bench Buyer",
          "address-json": JSON.stringify(address),
          "limit-per-order": "5000.00",
          "limit-per-30-days": "50000.00",
          card: "4242424242424242",
        });
        const agent = await createAgent({ scopes: ["checkout:write", "purchase:write"] });
        const { token } = await issueAccessToken(db(), {
          clientId: agent.id,
          personId: person.person_id,
          scopes: ["checkout:write", "purchase:write"],
          now: new Date(),
        });
        return { personId: person.person_id, authorization: `Bearer ${token}` };
      },
    );
    const stores = [
      await createStore({ agentCheckout: "direct" }),
      await createStore({ agentCheckout: "direct" }),
    ];
    const items = await pool(
      Array.from({ length: total + raceItems }, (_, index) => index),
      4,
      (index) =>
        createItem({ storeId: stores[index % 2].id, priceCents: 2500 + (index % 40) * 100 }),
    );
    const timedItems = items.slice(0, total);
    const racedItems = items.slice(total);

    const quoteRequest = (buyer: Buyer, itemId: number) => ({
      path: "/api/v1/checkout/quotes",
      headers: { "content-type": "application/json", authorization: buyer.authorization },
      body: JSON.stringify({ items: [{ item_id: itemId, size: "M" }], shipping_address: address }),
    });
    const makeQuote = async (buyer: Buyer, itemId: number) => {
      const request = quoteRequest(buyer, itemId);
      const response = await fetch(`${baseUrl}${request.path}`, {
        method: "POST",
        headers: request.headers,
        body: request.body,
      });
      const body = await response.text();
      if (response.status !== 201)
        throw new Error(`quote answered ${response.status}: ${body.slice(0, 300)}`);
      return (JSON.parse(body) as { quote_id: string }).quote_id;
    };
    const purchaseRequest = (buyer: Buyer, quoteId: string) => ({
      path: "/api/v1/purchases",
      headers: {
        "content-type": "application/json",
        authorization: buyer.authorization,
        "idempotency-key": randomUUID(),
      },
      body: JSON.stringify({ quote_id: quoteId }),
    });

    log(
      `purchase: making ${total} quotes for the timed phase and ${raceItems * quotesPerRaceItem} for the race`,
    );
    const timedQuotes = await pool(timedItems, 8, (item, index) =>
      makeQuote(buyers[index % Math.ceil(total / perBuyer)], item.id).then((quoteId) => ({
        quoteId,
        buyer: buyers[index % Math.ceil(total / perBuyer)],
      })),
    );
    const raceBuyers = buyers.slice(Math.ceil(total / perBuyer));
    // Item-major order: the 4 quotes of one item leave one after the other, so they meet at the item.
    const raceJobs = racedItems.flatMap((item, itemIndex) =>
      Array.from({ length: quotesPerRaceItem }, (_, copy) => ({
        item,
        buyer: raceBuyers[(itemIndex * quotesPerRaceItem + copy) % raceBuyers.length],
      })),
    );
    const raceQuotes = await pool(raceJobs, 8, async (job) => ({
      ...job,
      quoteId: await makeQuote(job.buyer, job.item.id),
    }));

    // Warm-up: a few purchases and quotes outside the measurement (JIT, pools, prepared statements).
    for (let index = 0; index < 5; index++) {
      const warm = buyers[buyers.length - 1 - index];
      const request = purchaseRequest(
        warm,
        await makeQuote(warm, timedItems[index].id).catch(() => ""),
      );
      await fetch(`${baseUrl}${request.path}`, {
        method: "POST",
        headers: request.headers,
        body: request.body,
      });
    }
    // The warm-up reserved five timed items: give them back (every item has one unit).
    await db().$executeRaw`UPDATE variants SET quantity = 1`;

    log(
      `purchase: reference, POST /checkout/quotes open loop at ${options.rate} req/s for ${options.seconds} s`,
    );
    let quoteNext = 0;
    const referenceCpuBefore = cpuReading(service.pid);
    const reference = await runOpenLoop({
      baseUrl,
      method: "POST",
      durationSeconds: options.seconds,
      rate: options.rate,
      next: () => {
        const index = quoteNext++ % total;
        return quoteRequest(buyers[index % Math.ceil(total / perBuyer)], timedItems[index].id);
      },
    });
    const referenceCpu = cpuPerRequest(referenceCpuBefore, cpuReading(service.pid), total);
    log(`purchase: POST /purchases open loop at ${options.rate} req/s for ${options.seconds} s`);
    let purchaseNext = 0;
    const latencyCpuBefore = cpuReading(service.pid);
    const latency = await runOpenLoop({
      baseUrl,
      method: "POST",
      durationSeconds: options.seconds,
      rate: options.rate,
      next: () => {
        const { quoteId, buyer } = timedQuotes[purchaseNext++];
        return purchaseRequest(buyer, quoteId);
      },
    });

    const latencyCpu = cpuPerRequest(latencyCpuBefore, cpuReading(service.pid), total);
    log(
      `purchase: race, ${raceConnections} connections, ${raceQuotes.length} purchases of ${raceItems} items`,
    );
    const raceStatuses: Record<string, number> = {};
    const raceStarted = performance.now();
    await pool(raceQuotes, raceConnections, async ({ buyer, quoteId }) => {
      const request = purchaseRequest(buyer, quoteId);
      const response = await fetch(`${baseUrl}${request.path}`, {
        method: "POST",
        headers: request.headers,
        body: request.body,
      });
      const body = (await response.json()) as { error?: { code: string } };
      const key = `${response.status}${body.error ? ` ${body.error.code}` : ""}`;
      raceStatuses[key] = (raceStatuses[key] ?? 0) + 1;
    });
    const raceSeconds = (performance.now() - raceStarted) / 1000;
    // The processor's ledger, per item: holds of every purchase of a quote of that item.
    const holdsPerItem = new Map<number, number>(racedItems.map((item) => [item.id, 0]));
    const racePurchases = await db().purchase.findMany({
      where: { quoteId: { in: raceQuotes.map((race) => race.quoteId) } },
      select: { id: true, quoteId: true },
    });
    const itemOfQuote = new Map(raceQuotes.map((race) => [race.quoteId, race.item.id]));
    for (const purchase of racePurchases) {
      const ledger = await sandboxLedger(purchase.id);
      if (ledger.status === "authorized")
        holdsPerItem.set(
          itemOfQuote.get(purchase.quoteId)!,
          holdsPerItem.get(itemOfQuote.get(purchase.quoteId)!)! + ledger.holds,
        );
    }
    const perItem = [...holdsPerItem.values()];
    const exactlyOne = perItem.filter((holds) => holds === 1).length;

    printTable(`POST /purchases (sandbox processor), open loop at ${options.rate} req/s, ms`, [
      {
        request: "POST /purchases",
        "req/s": latency.requestsPerSecond,
        p50: latency.p50,
        p95: latency.p95,
        p99: latency.p99,
        "service CPU ms/req": latencyCpu.serviceMs,
        "PostgreSQL CPU ms/req": latencyCpu.postgresMs,
        errors: latency.errors,
        statuses: JSON.stringify(latency.statuses),
      },
      {
        request: "POST /checkout/quotes (reference)",
        "req/s": reference.requestsPerSecond,
        p50: reference.p50,
        p95: reference.p95,
        p99: reference.p99,
        "service CPU ms/req": referenceCpu.serviceMs,
        "PostgreSQL CPU ms/req": referenceCpu.postgresMs,
        errors: reference.errors,
        statuses: JSON.stringify(reference.statuses),
      },
    ]);
    printTable(
      `race: ${raceConnections} connections, ${raceQuotes.length} purchases of ${raceItems} quantity-one items`,
      [
        {
          seconds: Math.round(raceSeconds * 10) / 10,
          answers: JSON.stringify(raceStatuses),
          "items with exactly one hold": `${exactlyOne} of ${raceItems}`,
          "most holds on one item": Math.max(...perItem),
          "items with none": perItem.filter((holds) => holds === 0).length,
        },
      ],
    );
    const verdict =
      latency.p50 <= 25 && latency.p95 <= 60 && latency.errors === 0 && exactlyOne === raceItems;
    console.log(
      verdict
        ? "targets met: p50 <= 25 ms, p95 <= 60 ms, one hold per raced item"
        : "TARGETS MISSED (see the figures above)",
    );
    const record = {
      name: "purchase",
      measuredAt: new Date().toISOString(),
      machine: machine(),
      rate: options.rate,
      seconds: options.seconds,
      latency: { ...latency, cpu: latencyCpu },
      reference: { ...reference, cpu: referenceCpu },
      race: {
        connections: raceConnections,
        purchases: raceQuotes.length,
        items: raceItems,
        statuses: raceStatuses,
        exactlyOneHold: exactlyOne,
        maxHolds: Math.max(...perItem),
      },
    };
    console.log(`\nwrote ${writeResult("purchase", record)}`);
    await db().$disconnect();
  } finally {
    await service?.stop();
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(
      () => undefined,
    );
  }
};
