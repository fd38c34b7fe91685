/**
 * Chooses the CatalogSearch implementation that serves requests: the in-memory index when this
 * process started one (the launcher does unless SEARCH_IMPL=postgres; see memory/start-index.ts),
 * else the PostgreSQL reference. The index lives on globalThis because the launcher (tsx) and the
 * Next.js bundle load this module separately in the same process and must share one index.
 */
import type { Db } from "../../platform/db";
import type { CatalogSync } from "./memory/catalog-sync";
import { createMemorySearch } from "./memory/memory-search";
import { createPgSearch } from "./pg-search";
import { secondsSince } from "../../platform/observability/metrics";
import type { CatalogSearch } from "./types";

const shared = globalThis as unknown as { shoppingCatalogSync?: CatalogSync };

/** The index this process keeps, if it started one. */
export const runningCatalogSync = (): CatalogSync | undefined => shared.shoppingCatalogSync;

/** What /metrics shows of this process's in-memory index (its items, and how long its oldest heard change has waited); undefined without one. */
export const searchIndexState = () => {
  const sync = runningCatalogSync();
  if (!sync) return undefined;
  const { pendingSince } = sync.stats;
  return {
    items: sync.index?.itemCount ?? 0,
    lagSeconds: pendingSince ? secondsSince(pendingSince) : 0,
  };
};

/** Makes `sync` the index every catalogSearch() of this process answers from. */
export const useCatalogSync = (sync: CatalogSync | undefined) => {
  shared.shoppingCatalogSync = sync;
};

const cache = new WeakMap<
  object,
  { postgres: CatalogSearch; memory?: CatalogSearch; sync?: CatalogSync }
>();

export const catalogSearch = (db: Db): CatalogSearch => {
  let entry = cache.get(db);
  if (!entry) {
    entry = { postgres: createPgSearch(db) };
    cache.set(db, entry);
  }
  const sync = runningCatalogSync();
  if (!sync) return entry.postgres;
  if (entry.sync !== sync) {
    entry.memory = createMemorySearch({ db, sync, fallback: entry.postgres });
    entry.sync = sync;
  }
  return entry.memory!;
};
