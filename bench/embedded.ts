/**
 * `npm run bench -- embedded [--items 5000] [--rate 100]`: the search mix on the embedded default (npm
 * start with no DATABASE_URL or REDIS_URL, fresh DATA_DIR) next to the configured servers (a fresh
 * database on the local PostgreSQL, and Redis), in one run. Each side is a fresh `npm start` that
 * seeds its own sandbox catalogue with SEED_ITEMS=items, so both serve the same catalogue. Figures:
 * throughput (closed loop, 32 connections) and latency (open loop at a stated rate, the same for both).
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { resetEnv } from "../server/platform/env";
import { runningEmbeddedDatabaseUrl } from "../server/platform/embedded-db";
import { databaseUrl, serverUrl, withAdmin } from "../server/testing/databases";
import { loadSearchVocabulary } from "../server/testing/random-search-queries";
import { runPhase, type PhaseResult } from "./lib/load";
import { machine } from "./lib/machine";
import { runOpenLoop } from "./lib/open-loop";
import { createPartners, tokenRotation } from "./lib/partners";
import { searchMix } from "./lib/query-mix";
import { printTable, ratio, writeResult } from "./lib/report";
import { startService } from "./lib/service";

type Side = "embedded" | "server";
type SideResult = {
  side: Side;
  readySeconds: number;
  throughput: PhaseResult;
  latency: PhaseResult & { rate: number };
};

/**
 * Partners are made by the ops commands' code on this process's one Prisma client; each side has
 * its own database, so the client (and the parsed environment) is dropped between the sides.
 */
const forgetDatabaseClient = async () => {
  const { db } = await import("../server/platform/db");
  await db().$disconnect();
  delete (globalThis as { shoppingDb?: unknown }).shoppingDb;
  resetEnv();
};

const runSide = async (options: {
  side: Side;
  items: number;
  seconds: number;
  rate: number;
  log: (line: string) => void;
  mixFor: (url: string) => Promise<string[]>;
}): Promise<SideResult> => {
  const { side, log } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), "shopping-bench-embedded-"));
  chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach it
  const serverDb = `shopping_bench_embedded_cmp_${process.pid}`;
  if (side === "server") await withAdmin((admin) => admin.query(`CREATE DATABASE "${serverDb}"`));
  log(
    `\n== ${side}: starting npm start (${side === "embedded" ? "no DATABASE_URL, no REDIS_URL" : "local PostgreSQL and Redis"}), seeding ${options.items} items`,
  );
  const started = Date.now();
  const service = await startService({
    databaseUrl: side === "server" ? databaseUrl(serverDb) : undefined,
    dataDir,
    searchImpl: "memory",
    log,
    env: { SEED_ITEMS: String(options.items) },
  });
  const readySeconds = Math.round((Date.now() - started) / 100) / 10;
  try {
    const url = side === "server" ? databaseUrl(serverDb) : runningEmbeddedDatabaseUrl(dataDir)!;
    const mix = await options.mixFor(url);
    const partners = await createPartners({
      baseUrl: service.baseUrl,
      databaseUrl: url,
      count: 600,
    });
    await forgetDatabaseClient();
    const authorization = tokenRotation(partners);
    let nextPath = 0;
    const next = () => ({
      path: mix[nextPath++ % mix.length],
      headers: { authorization: authorization(), "cache-control": "no-cache" },
    });
    log(`${side}: warm-up`);
    await runPhase({ baseUrl: service.baseUrl, connections: 8, durationSeconds: 5, next });
    log(`${side}: throughput, 32 connections, ${options.seconds} s`);
    const throughput = await runPhase({
      baseUrl: service.baseUrl,
      connections: 32,
      durationSeconds: options.seconds,
      next,
    });
    log(`${side}: latency, open loop at ${options.rate} req/s, ${options.seconds} s`);
    const latency = {
      ...(await runOpenLoop({
        baseUrl: service.baseUrl,
        durationSeconds: options.seconds,
        rate: options.rate,
        next,
      })),
      rate: options.rate,
    };
    return { side, readySeconds, throughput, latency };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (side === "server")
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${serverDb}" WITH (FORCE)`));
  }
};

/** Runs both sides and writes bench/results/embedded-<items>.json. */
export const benchEmbedded = async (options: { items: number; seconds: number; rate: number }) => {
  const log = (line: string) => console.log(line);
  const machineAtStart = machine();
  // Pin the configured server now: making partners points DATABASE_URL at each side's database.
  process.env.TEST_DATABASE_SERVER_URL ??= serverUrl();
  let mix: string[] | undefined;
  // The same paths for both sides: the catalogues are identical (same generator, same SEED_ITEMS).
  const mixFor = async (url: string) => {
    if (mix) return mix;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const vocabulary = await loadSearchVocabulary(client).finally(() => client.end());
    return (mix = searchMix(vocabulary, { seed: 20261122, count: 5000 }).map(
      (entry) => entry.path,
    ));
  };
  const results: SideResult[] = [];
  for (const side of ["embedded", "server"] as const)
    results.push(
      await runSide({
        side,
        items: options.items,
        seconds: options.seconds,
        rate: options.rate,
        log,
        mixFor,
      }),
    );
  const [embedded, server] = results;
  const metric = (name: string, pick: (result: SideResult) => number) => ({
    metric: name,
    embedded: pick(embedded),
    server: pick(server),
    "embedded / server": ratio(pick(embedded), pick(server)),
  });
  const rows = [
    metric(`mix p50 ms (open loop, ${options.rate} req/s)`, (r) => r.latency.p50),
    metric(`mix p95 ms (open loop, ${options.rate} req/s)`, (r) => r.latency.p95),
    metric(`mix p99 ms (open loop, ${options.rate} req/s)`, (r) => r.latency.p99),
    metric("mix req/s (32 conns)", (r) => r.throughput.requestsPerSecond),
    metric("mix p50 ms at 32 conns", (r) => r.throughput.p50),
    metric("mix p95 ms at 32 conns", (r) => r.throughput.p95),
    metric("errors (all phases)", (r) => r.throughput.errors + r.latency.errors),
    metric("start to serving, first start (s)", (r) => r.readySeconds),
  ];
  printTable(`search mix, embedded default vs configured server, ${options.items} items`, rows);
  const record = {
    name: "embedded",
    items: options.items,
    rate: options.rate,
    measuredAt: new Date().toISOString(),
    machine: machine(),
    loadAverageAtStart: machineAtStart.loadAverage,
    results,
    table: rows,
  };
  console.log(`\nwrote ${writeResult(`embedded-${options.items}`, record)}`);
};
