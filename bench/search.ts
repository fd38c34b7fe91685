/**
 * `npm run bench -- search --items N`: the search mix against the in-memory index and against the
 * PostgreSQL reference, each in its own `npm start` process on the same catalogue database:
 * throughput (closed loop, 32 connections), latency (open loop at half that rate), deep pages
 * (2000 x 48, open loop), one hot URL repeated (closed loop, 50 connections, page cache on),
 * freshness after writes, and the service's RSS while it serves.
 */
import { measureFreshness } from "./lib/freshness";
import { runPhase, type PhaseResult } from "./lib/load";
import { runOpenLoop } from "./lib/open-loop";
import { machine, postgresSettings } from "./lib/machine";
import { createPartners, tokenRotation } from "./lib/partners";
import { catalogWithSearchMix } from "./lib/query-mix";
import { printTable, ratio, writeResult } from "./lib/report";
import { sampleRss } from "./lib/rss";
import { startService } from "./lib/service";

type ImplResult = {
  impl: "memory" | "postgres";
  indexBuildMs: number | null;
  throughput: PhaseResult;
  latency: PhaseResult & { rate: number };
  deepPage: PhaseResult;
  hotQuery: PhaseResult;
  freshness: Awaited<ReturnType<typeof measureFreshness>>;
  rssMb: { peak: number; last: number };
};

const deepPaths = ["newest", "price_asc", "price_desc", "relevance"].map(
  (sort) => `/api/v1/products?sort=${sort}&page=2000&per_page=48`,
);
const hotPath = "/api/v1/products?category=Women&sort=newest&per_page=24";

const cycle = <T>(list: T[]) => {
  let next = 0;
  return () => list[next++ % list.length];
};

const runImpl = async (options: {
  impl: "memory" | "postgres";
  databaseUrl: string;
  mix: string[];
  seconds: number;
  log: (line: string) => void;
}): Promise<ImplResult> => {
  const { impl, log } = options;
  log(`\n== ${impl}: starting npm start`);
  const service = await startService({ databaseUrl: options.databaseUrl, searchImpl: impl, log });
  const rss = sampleRss(service.pid);
  try {
    const partners = await createPartners({
      baseUrl: service.baseUrl,
      databaseUrl: options.databaseUrl,
      count: 1500,
    });
    const authorization = tokenRotation(partners);
    // Uncached phases ask for fresh answers (Cache-Control: no-cache skips the one-second page cache).
    const over = (paths: string[], options: { isCached?: boolean } = {}) => {
      const path = cycle(paths);
      const fresh: Record<string, string> = options.isCached ? {} : { "cache-control": "no-cache" };
      return () => ({ path: path(), headers: { authorization: authorization(), ...fresh } });
    };
    const base = { baseUrl: service.baseUrl };
    log(`${impl}: warm-up`);
    await runPhase({ ...base, connections: 8, durationSeconds: 5, next: over(options.mix) });
    rss.reset();
    log(`${impl}: throughput, 32 connections, ${options.seconds} s`);
    const throughput = await runPhase({
      ...base,
      connections: 32,
      durationSeconds: options.seconds,
      next: over(options.mix),
    });
    const rate = Math.max(1, Math.floor(throughput.requestsPerSecond / 2));
    log(`${impl}: latency, open loop at ${rate} req/s (half the throughput), ${options.seconds} s`);
    const latency = {
      ...(await runOpenLoop({
        ...base,
        durationSeconds: options.seconds,
        rate,
        next: over(options.mix),
      })),
      rate,
    };
    const deepRate = Math.max(1, Math.min(20, rate));
    log(`${impl}: deep pages (2000 x 48), open loop at ${deepRate} req/s`);
    const deepPage = await runOpenLoop({
      ...base,
      durationSeconds: 10,
      rate: deepRate,
      next: over(deepPaths),
    });
    log(`${impl}: one hot URL repeated, 50 connections`);
    const hotQuery = await runPhase({
      ...base,
      connections: 50,
      durationSeconds: 10,
      next: over([hotPath], { isCached: true }),
    });
    log(`${impl}: freshness`);
    const freshness = await measureFreshness({
      baseUrl: service.baseUrl,
      databaseUrl: options.databaseUrl,
      authorization,
    });
    const memory = rss.stop();
    return {
      impl,
      indexBuildMs: service.indexBuildMs,
      throughput,
      latency,
      deepPage,
      hotQuery,
      freshness,
      rssMb: { peak: memory.peakMb, last: memory.lastMb },
    };
  } finally {
    rss.stop();
    await service.stop();
  }
};

/** Runs the search benchmark at `items` and writes bench/results/search-<items>.json. */
export const benchSearch = async (options: {
  items: number;
  seconds: number;
  only?: "memory" | "postgres";
}) => {
  const log = (line: string) => console.log(line);
  const machineAtStart = machine();
  const { database, mix } = await catalogWithSearchMix(options.items, log);
  const postgresServer = await postgresSettings();
  log(`PostgreSQL server: ${JSON.stringify(postgresServer)}`);
  const impls = options.only ? [options.only] : (["memory", "postgres"] as const);
  const results: ImplResult[] = [];
  for (const impl of impls)
    results.push(
      await runImpl({ impl, databaseUrl: database.url, mix, seconds: options.seconds, log }),
    );

  const byImpl = (impl: string) => results.find((result) => result.impl === impl);
  const memory = byImpl("memory");
  const postgres = byImpl("postgres");
  const metric = (
    name: string,
    pick: (result: ImplResult) => number | null,
    better: "lower" | "higher",
  ) => ({
    metric: name,
    memory: memory ? pick(memory) : null,
    postgres: postgres ? pick(postgres) : null,
    "memory advantage (x)":
      better === "lower"
        ? ratio(postgres && pick(postgres), memory && pick(memory))
        : ratio(memory && pick(memory), postgres && pick(postgres)),
  });
  const rows = [
    metric("mix p50 ms (open loop, half load)", (r) => r.latency.p50, "lower"),
    metric("mix p95 ms (open loop, half load)", (r) => r.latency.p95, "lower"),
    metric("mix p99 ms (open loop, half load)", (r) => r.latency.p99, "lower"),
    metric("mix req/s (32 conns)", (r) => r.throughput.requestsPerSecond, "higher"),
    metric("mix p50 ms at 32 conns", (r) => r.throughput.p50, "lower"),
    metric("mix p95 ms at 32 conns", (r) => r.throughput.p95, "lower"),
    metric(
      "errors (all phases)",
      (r) => r.throughput.errors + r.latency.errors + r.deepPage.errors + r.hotQuery.errors,
      "lower",
    ),
    metric("deep page 2000x48 p95 ms", (r) => r.deepPage.p95, "lower"),
    metric("hot URL req/s (50 conns)", (r) => r.hotQuery.requestsPerSecond, "higher"),
    metric("hot URL p99 ms", (r) => r.hotQuery.p99, "lower"),
    metric("sold item gone, max ms", (r) => r.freshness.soldMaxMs, "lower"),
    metric("price change visible, max ms", (r) => r.freshness.priceMaxMs, "lower"),
    metric("server RSS peak MB", (r) => r.rssMb.peak, "lower"),
    metric("index build ms", (r) => r.indexBuildMs, "lower"),
  ];
  printTable(`search, ${options.items} items`, rows);
  const record = {
    name: "search",
    items: options.items,
    measuredAt: new Date().toISOString(),
    machine: machine(),
    loadAverageAtStart: machineAtStart.loadAverage,
    catalogLoadSeconds: database.loadSeconds,
    database: database.name,
    postgresServer,
    results,
    table: rows,
  };
  console.log(`\nwrote ${writeResult(`search-${options.items}`, record)}`);
};
