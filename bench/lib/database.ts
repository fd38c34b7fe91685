/**
 * A benchmark catalogue: one database per size on the local server (kept between runs), migrated
 * and loaded with the deterministic generator the first time. The load is timed.
 */
import pg from "pg";
import { seedCatalog } from "../../prisma/seed/catalog";
import { machine } from "./machine";
import { writeResult } from "./report";
import { migrate } from "../../server/edges/ops/migrate";
import { assertLocal, databaseUrl, withAdmin } from "../../server/testing/databases";

const benchDatabaseName = (items: number) => {
  const prefix = process.env.BENCH_DB_PREFIX ?? "shopping_bench_";
  return `${prefix}${items >= 1_000_000 && items % 1_000_000 === 0 ? `${items / 1_000_000}m` : items % 1000 === 0 ? `${items / 1000}k` : items}`;
};

/** Stores scale with the catalogue, as in PERFORMANCE.md (5,000 stores at a million items). */
const storesFor = (items: number) => Math.max(12, Math.min(5000, Math.round(items / 200)));

/**
 * Reads every table and index of the catalogue into the OS page cache (pg_prewarm, mode read), so
 * the figures describe a warm database, as a serving one is, not the first reads after a load.
 */
const warmUp = async (client: pg.Client) => {
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
  await client.query(
    "SELECT pg_prewarm(c.oid, 'read') FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')",
  );
};

/** Creates, migrates and seeds the catalogue database when needed; returns its URL and the load time if it loaded. */
export const ensureCatalogDatabase = async (items: number, log: (line: string) => void) => {
  const machineAtStart = machine();
  const name = benchDatabaseName(items);
  const url = databaseUrl(name);
  assertLocal(url);
  const admin = new pg.Client({ connectionString: databaseUrl("postgres") });
  await admin.connect();
  const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (!rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  // A kept database that an older draft of a migration touched cannot be migrated: say what to do.
  await migrate(url).catch((error: unknown) => {
    throw new Error(
      `${(error as Error).message} The benchmark database ${name} is kept between runs: drop it (psql -c 'DROP DATABASE "${name}"') and run again to load it afresh.`,
      { cause: error },
    );
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    const result = await seedCatalog(client, { items, stores: storesFor(items), seed: 42, log });
    let loadSeconds: number | null = null;
    if (result.skipped) log(`catalogue ${name} already holds ${result.items} items`);
    else {
      loadSeconds = Math.round((Date.now() - started) / 100) / 10;
      log(`loaded ${items} items into ${name} in ${loadSeconds} s`);
      writeResult(`catalog-load-${items}`, {
        name: "catalog-load",
        items,
        stores: storesFor(items),
        seed: 42,
        seconds: loadSeconds,
        measuredAt: new Date().toISOString(),
        machine: machineAtStart,
      });
      // What autovacuum would soon do: hint bits, visibility map and statistics for every table.
      await client.query("VACUUM ANALYZE");
    }
    await warmUp(client);
    return { url, name, loadSeconds };
  } finally {
    await client.end();
  }
};

/**
 * Runs `work` against a fresh, migrated database of its own (dropped afterwards, whatever happens),
 * with DATABASE_URL and the rate-limit prefix pointing at it: modules that read them (factories,
 * server/db) must be imported inside `work`.
 */
export const withScratchDatabase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  try {
    process.env.DATABASE_URL = databaseUrl(name);
    process.env.RATE_LIMIT_PREFIX = `bench:${name}`;
    await migrate(process.env.DATABASE_URL);
    return await work();
  } finally {
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
};
