/**
 * The service's lifecycle without a Next build, for the probe and shutdown tests: the front door
 * with the probes and the lean API, the in-process sweep, and the graceful shutdown wired as
 * server/start.ts wires them (server/edges/http/lifecycle.ts), on the environment's database and
 * Redis. `LIFECYCLE_SEARCH_INDEX=memory` builds the search index as `npm start` does;
 * `LIFECYCLE_MIGRATIONS_DIR` replaces the migrations that must be applied. Prints
 * `{"base": "http://127.0.0.1:PORT"}` once listening; stops on SIGTERM as `npm start` does
 * (SHUTDOWN_DRAIN_MS, SHUTDOWN_TIMEOUT_MS).
 */
import { startConnectorServer } from "./mcp-server";
import { createLifecycle } from "../edges/http/lifecycle";
import { startSweep } from "../edges/jobs/sweep";
import { startCatalogIndex } from "../catalogue/search/memory/start-index";
import { env } from "../platform/env";

const log = (line: string) => console.log(`[lifecycle] ${line}`);

const main = async () => {
  const config = env();
  let isSearchIndexBuilding = false;
  let stopSearch = async () => undefined as void;
  if (process.env.LIFECYCLE_SEARCH_INDEX === "memory") {
    isSearchIndexBuilding = true;
    const { host, ready } = startCatalogIndex({ databaseUrl: config.DATABASE_URL!, log });
    void ready.then(() => (isSearchIndexBuilding = false));
    stopSearch = () => host.stop();
  }
  const lifecycle = createLifecycle({
    databaseUrl: config.DATABASE_URL!,
    log,
    isSearchIndexBuilding: () => isSearchIndexBuilding,
    migrationsDir: process.env.LIFECYCLE_MIGRATIONS_DIR,
  });
  const { base, server } = await startConnectorServer({ probes: lifecycle.probes });
  const sweep = startSweep();
  lifecycle.handleSignals({
    server,
    stopBackground: () => sweep.stop(),
    closers: [stopSearch],
  });
  console.log(JSON.stringify({ base }));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
