/**
 * Chooses the CatalogSearch implementation that serves requests: the in-memory index when this
 * process started one (the launcher does unless SEARCH_IMPL=postgres; see memory/start-index.ts),
 * else the PostgreSQL reference. The index lives on globalThis because the launcher (tsx) and the
 * Next.js bundle load this module separately in the same process and must share one index.
 */
import type { Db } from "../../platform/db";
import type { IndexHost } from "./memory/index-host";
import { createMemorySearch } from "./memory/memory-search";
import { createPgSearch } from "./pg-search";
import { secondsSince } from "../../platform/observability/metrics";
import type { CatalogSearch } from "./types";

const shared = globalThis as unknown as { shoppingIndexHost?: IndexHost };

/** The index this process keeps, if it started one. */
const runningIndex = (): IndexHost | undefined => shared.shoppingIndexHost;

/** What /metrics shows of this process's in-memory index (its items, and how long its oldest heard change has waited); undefined without one. */
export const searchIndexState = () => {
  const host = runningIndex();
  if (!host) return undefined;
  const { items, pendingSince } = host.state();
  return { items, lagSeconds: pendingSince ? secondsSince(pendingSince) : 0 };
};

/** Makes `host` the index every catalogSearch() of this process answers from. */
export const useIndexHost = (host: IndexHost | undefined) => {
  shared.shoppingIndexHost = host;
};

const cache = new WeakMap<
  object,
  { postgres: CatalogSearch; memory?: CatalogSearch; host?: IndexHost }
>();

export const catalogSearch = (db: Db): CatalogSearch => {
  let entry = cache.get(db);
  if (!entry) {
    entry = { postgres: createPgSearch(db) };
    cache.set(db, entry);
  }
  const host = runningIndex();
  if (!host) return entry.postgres;
  if (entry.host !== host) {
    entry.memory = createMemorySearch({ host, fallback: entry.postgres });
    entry.host = host;
  }
  return entry.memory!;
};
