/**
 * What serves searches from an in-memory index, wherever the index lives: on the search thread
 * (search-thread.ts, what `npm start` runs) or in this thread (`inThisThread`, for tests that drive a
 * CatalogSync directly). Both answer through `answerSearch` and `countWatchers`, so the rule of when
 * the index may answer is written once.
 */
import type { CatalogSync } from "./catalog-sync";
import { evaluate } from "./evaluate";
import { isTimeDependent, nowOf, type SearchHits, type SearchQuery } from "../types";

/** What /metrics shows of an index: its items, and since when its oldest heard change waits (epoch ms; 0: none). */
export type IndexState = { items: number; pendingSince: number };

export type IndexHost = {
  /** Changes whenever the index changes; undefined until it is built (and while a thread restarts). */
  version(): number | undefined;
  /**
   * The hits, or undefined when the index cannot answer: not built, or a time its recent prices do
   * not cover (a clock far behind, or behind the newest change). The PostgreSQL reference answers
   * then.
   */
  search(query: SearchQuery, lexemes: string[]): Promise<SearchHits | undefined>;
  /** Live watchers of each item other than `viewerId`; undefined until built. */
  priceWatchers(
    itemIds: readonly number[],
    viewerId: string | undefined,
  ): Promise<number[] | undefined>;
  state(): IndexState;
  stop(): Promise<void>;
};

/** `query` from `sync`'s index, or undefined when the reference must answer (see IndexHost.search). */
export const answerSearch = (sync: CatalogSync, query: SearchQuery, lexemes: string[]) => {
  const index = sync.index;
  if (!index) return undefined;
  if (isTimeDependent(query) && !index.prices.covers(nowOf(query))) return undefined;
  return evaluate(index, query, lexemes);
};

export const countWatchers = (
  sync: CatalogSync,
  itemIds: readonly number[],
  viewerId: string | undefined,
) => {
  const watchers = sync.index ? sync.watchers : undefined;
  return watchers ? itemIds.map((id) => watchers.count(id, viewerId)) : undefined;
};

export const stateOf = (sync: CatalogSync): IndexState => ({
  items: sync.index?.itemCount ?? 0,
  pendingSince: sync.stats.pendingSince,
});

/** `sync`, started by the caller, serving from this thread. */
export const inThisThread = (sync: CatalogSync): IndexHost => ({
  version: () => sync.index?.version,
  search: async (query, lexemes) => answerSearch(sync, query, lexemes),
  priceWatchers: async (itemIds, viewerId) => countWatchers(sync, itemIds, viewerId),
  state: () => stateOf(sync),
  stop: () => sync.stop(),
});
