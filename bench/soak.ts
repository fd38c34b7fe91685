/**
 * `npm run bench -- soak [--minutes 10] [--rate 20] [--items 20000]`: a bounded mix held for the
 * whole run against `npm start` on loopback (its own catalogue database, BENCH_DB_PREFIX
 * shopping_soak_ unless set): 50% search, 25% quote, 12% checkout, 8% assistant purchase (a quote
 * for the person's saved address, then POST /purchases; one in four sent twice with its key, a
 * replay), 5% price watches and alerts (set, list, read, cancel, and sales through the sandbox price
 * helper that make watches buy and alerts email: bench/lib/soak-watches.ts). Requests leave on a
 * fixed schedule (`--rate` a second, at most 64 in flight). Passes when there is no 5xx, no purchase
 * holds twice in the processor's ledger (server/testing/purchase-ledger.ts), every watch purchase
 * is recorded on one watch and holds once, and the service's RSS grows under 10% from minute 1 to the end.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { loadSearchVocabulary } from "../server/testing/random-search-queries";
import { checkoutRequest, quoteBody } from "./lib/checkout-bodies";
import { ensureCatalogDatabase } from "./lib/database";
import { machine } from "./lib/machine";
import { createPartners, tokenRotation } from "./lib/partners";
import { searchMix } from "./lib/query-mix";
import { printTable, writeResult } from "./lib/report";
import { sampleRss } from "./lib/rss";
import { startService } from "./lib/service";
import { createBuyers, directItems } from "./lib/soak-buyers";
import { pricedItems, verifyWatchPurchases, watchScopes, watchSteps } from "./lib/soak-watches";

type Kind =
  "search" | "quote" | "checkout" | "purchase" | "purchase-replay" | "watch" | "alert" | "sale";
type Call = (
  path: string,
  init?: {
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    authorization?: string;
  },
) => Promise<{ status: number; body: string }>;

const mix: [Kind, number][] = [
  ["search", 0.5],
  ["quote", 0.25],
  ["checkout", 0.12],
  ["purchase", 0.08],
  ["watch", 0.05],
];
const purchasesPerPersonPerHour = 10;
/** Items kept for watches and sales, apart from the ones the mix quotes and buys. */
const watchedItems = 40;

export const benchSoak = async (options: { minutes: number; rate: number; items: number }) => {
  process.env.BENCH_DB_PREFIX ??= "shopping_soak_";
  const log = (line: string) => console.log(line);
  const database = await ensureCatalogDatabase(options.items, log);
  const direct = await directItems(database.url, 12);
  const buyable = direct.slice(0, -watchedItems);
  const watched = await pricedItems(database.url, direct.slice(-watchedItems));
  const service = await startService({ databaseUrl: database.url, searchImpl: "memory", log });
  const rss = sampleRss(service.pid, 1000);
  try {
    const call: Call = async (path, init = {}) => {
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: init.method ?? (init.body ? "POST" : "GET"),
        body: init.body,
        headers: {
          ...(init.body ? { "content-type": "application/json" } : {}),
          ...(init.authorization ? { authorization: init.authorization } : {}),
          ...init.headers,
        },
      });
      return { status: response.status, body: await response.text() };
    };
    const purchasesExpected = Math.ceil(options.rate * 0.08 * 60 * options.minutes);
    const partners = await createPartners({
      baseUrl: service.baseUrl,
      databaseUrl: database.url,
      count: Math.ceil((options.rate * 60) / 80) + 4,
    });
    const authorization = tokenRotation(partners);
    const buyers = await createBuyers({
      databaseUrl: database.url,
      count: Math.ceil(purchasesExpected / (purchasesPerPersonPerHour - 2)) + 1,
    });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const searches = searchMix(await loadSearchVocabulary(client), {
      seed: 20261122,
      count: 5000,
    }).map((entry) => entry.path);
    await client.end();
    const watchers = await createBuyers({
      databaseUrl: database.url,
      count: 40,
      scopes: watchScopes,
    });
    log(
      `soak: ${options.minutes} min at ${options.rate} req/s; ${partners.length} partners, ${buyers.length} people, ${buyable.length} directly buyable items, ${watchers.length} watchers on ${watched.length} items`,
    );

    const statuses = new Map<string, number>();
    const count = (kind: Kind, status: number) =>
      void statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
    const purchaseIds = new Set<string>();
    let next = 0;
    const pick = <T>(list: readonly T[]) => list[next++ % list.length];
    // Buyers in strict turn, so each stays under the 10 purchases a person may make in an hour.
    let nextBuyer = 0;
    const buyerInTurn = () => buyers[nextBuyer++ % buyers.length];
    const quote = async (kind: Kind, itemId: number, as: string) => {
      const made = await call("/api/v1/checkout/quotes", {
        body: quoteBody([itemId]),
        authorization: as,
      });
      count(kind, made.status);
      return made.status === 201 ? (JSON.parse(made.body) as { quote_id: string }).quote_id : null;
    };
    const watchStep = watchSteps({ call, count, watchers, items: watched, partner: authorization });
    const steps: Record<
      Exclude<Kind, "purchase-replay" | "alert" | "sale">,
      () => Promise<void>
    > = {
      watch: watchStep,
      search: async () =>
        count(
          "search",
          (
            await call(pick(searches), {
              authorization: authorization(),
              headers: { "cache-control": "no-cache" },
            })
          ).status,
        ),
      quote: async () => void (await quote("quote", pick(buyable), authorization())),
      checkout: async () => {
        const as = authorization();
        const quoteId = await quote("quote", pick(buyable), as);
        if (!quoteId) return;
        const request = checkoutRequest(quoteId);
        count(
          "checkout",
          (
            await call("/api/v1/checkout/sessions", {
              body: request.body,
              headers: request.headers,
              authorization: as,
            })
          ).status,
        );
      },
      purchase: async () => {
        const buyer = buyerInTurn();
        const as = `Bearer ${buyer.token}`;
        const quoteId = await quote("quote", pick(buyable), as);
        if (!quoteId) return;
        const key = randomUUID();
        const send = () =>
          call("/api/v1/purchases", {
            body: JSON.stringify({ quote_id: quoteId }),
            headers: { "idempotency-key": key },
            authorization: as,
          });
        const first = await send();
        count("purchase", first.status);
        if (first.status === 201 || first.status === 202)
          purchaseIds.add((JSON.parse(first.body) as { purchase_id: string }).purchase_id);
        if (next % 4 === 0) count("purchase-replay", (await send()).status);
      },
    };
    const chooseStep = () => {
      let roll = Math.random();
      for (const [kind, share] of mix)
        if ((roll -= share) < 0) return steps[kind as keyof typeof steps];
      return steps.search;
    };

    const started = Date.now();
    const endsAt = started + options.minutes * 60_000;
    const firstSampleAt = started + Math.min(60_000, (options.minutes * 60_000) / 2);
    let rssFirst: number | null = null;
    let inFlight = 0;
    let skipped = 0;
    let failures = 0;
    const running = new Set<Promise<void>>();
    for (let sent = 0; ; sent++) {
      const due = started + (sent * 1000) / options.rate;
      if (due >= endsAt) break;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      if (rssFirst === null && Date.now() >= firstSampleAt) {
        rssFirst = rss.stop().lastMb;
        log(`soak: RSS at minute ${((Date.now() - started) / 60_000).toFixed(1)}: ${rssFirst} MB`);
      }
      if (inFlight >= 64) {
        skipped++;
        continue;
      }
      inFlight++;
      const work = chooseStep()()
        .catch((error: unknown) => {
          failures++;
          if (failures <= 5) log(`soak: request failed: ${(error as Error).message}`);
        })
        .finally(() => {
          inFlight--;
          running.delete(work);
        });
      running.add(work);
    }
    await Promise.all(running);
    const rssLast = rss.stop().lastMb;
    log(`soak: RSS at minute ${((Date.now() - started) / 60_000).toFixed(1)}: ${rssLast} MB`);

    printTable(
      "Soak: answers by kind and status",
      [...statuses].sort().map(([key, n]) => ({ request: key, count: n })),
    );
    // One purchase at a time: the ledger check must not itself exhaust the pool.
    const { sandboxLedger } = await import("../server/testing/purchase-ledger");
    const doubleHolds: string[] = [];
    for (const id of purchaseIds) {
      const ledger = await sandboxLedger(id);
      if (ledger.holds !== 1 || ledger.captures !== 0) doubleHolds.push(id);
    }
    // Sales left for the last evaluations: a watch that bought moments before the end is counted too.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const watchPurchases = await verifyWatchPurchases(database.url, watchers);
    printTable("Soak: price watches and alerts", [
      {
        "watch purchases": watchPurchases.watchPurchases,
        "not one watch and one hold": watchPurchases.wrong.length,
        watches: JSON.stringify(watchPurchases.watches),
        alerts: JSON.stringify(watchPurchases.alerts),
      },
    ]);
    if (watchPurchases.wrong.length)
      log(`soak: watch purchases wrong: ${watchPurchases.wrong.slice(0, 5).join("; ")}`);
    const serverErrors = [...statuses]
      .filter(([key]) => Number(key.split(" ")[1]) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const growth = rssFirst ? (rssLast - rssFirst) / rssFirst : 0;
    const summary = {
      minutes: options.minutes,
      rate: options.rate,
      requests: [...statuses.values()].reduce((a, b) => a + b, 0),
      skipped,
      clientFailures: failures,
      serverErrors,
      purchases: purchaseIds.size,
      doubleHolds: doubleHolds.length,
      watchPurchases: watchPurchases.watchPurchases,
      watchPurchasesWrong: watchPurchases.wrong.length,
      rssMinute1Mb: rssFirst,
      rssEndMb: rssLast,
      rssGrowthPercent: Math.round(growth * 1000) / 10,
    };
    printTable("Soak: verdict", [summary]);
    const errors = service.unexpectedErrors();
    if (errors.length)
      log(
        `soak: the service logged ${errors.length} unexpected errors; the first:\n${errors.slice(0, 3).join("\n")}`,
      );
    writeResult(`soak-${options.minutes}min`, {
      machine: machine(),
      ...summary,
      statuses: Object.fromEntries(statuses),
      watches: watchPurchases.watches,
      alerts: watchPurchases.alerts,
    });
    // A mix that never succeeds at something proves nothing: each kind must have succeeded at least once.
    const unexercised: string[] = (
      ["search", "quote", "checkout", "purchase", "watch", "alert", "sale"] as const
    ).filter((kind) => ![...statuses].some(([key, n]) => key.startsWith(`${kind} 2`) && n > 0));
    if (watchPurchases.watchPurchases === 0) unexercised.push("a watch that bought");
    const isPassed =
      serverErrors === 0 &&
      doubleHolds.length === 0 &&
      watchPurchases.wrong.length === 0 &&
      failures === 0 &&
      growth < 0.1 &&
      unexercised.length === 0;
    log(
      isPassed
        ? "soak: passed"
        : `soak: FAILED (5xx, a double hold, a watch purchase not on one watch, a failed request, RSS growth >= 10%, or never a success: ${unexercised.join(", ") || "-"})`,
    );
    if (!isPassed) process.exitCode = 1;
  } finally {
    rss.stop();
    await service.stop();
  }
};
