/**
 * Repeated identical searches share one answer (page ids, total, facets and the rows) while the
 * in-memory index has not changed, for at most one second: a hot URL then costs authentication, the
 * rate limit and serialisation only. Entries are keyed by the normalised query and the index
 * version (bumped by every catalogue change), and the one-second life bounds how old data outside
 * the index (stock, images) can be, like the index's own freshness target. Only the memory search
 * has a version; the PostgreSQL reference is never cached. Clients that send
 * `Cache-Control: no-cache` get a fresh answer.
 *
 * A page is kept only when its query is asked for the second time within the second: the first ask
 * leaves just its key. Most searches are asked once; kept, each page held its rows and facets for a
 * second that nobody used, long enough for V8 to move them to the old space and collect them there
 * (at a million items, 8% more searches a second at 32 connections without them; docs/adr/0045). A
 * hot query is computed twice instead of once.
 */
import type { ProductSummarySource } from "./product-json";
import type { SearchHits } from "./search/types";

export type CachedPage = { hits: SearchHits; sources: ProductSummarySource[] };

const ttlMs = 1000;
// A page with its facets is 20-60 KB: 256 of them bound the cache to about 10 MB.
const capacity = 256;
const entries = new Map<string, { version: number; expiresAt: number; page: CachedPage }>();
/** Keys asked for once in the last second, with when that second ends; a key is short, so more fit. */
const askedOnce = new Map<string, number>();
const askedOnceCapacity = 4 * capacity;

/** Oldest first, as a Map iterates in insertion order. */
const keepAtMost = (map: Map<string, unknown>, size: number) => {
  if (map.size > size) map.delete(map.keys().next().value!);
};

/** The cached page for `key` if it was computed at `version` less than a second ago. */
export const cachedPage = (
  key: string,
  version: number,
  now = Date.now(),
): CachedPage | undefined => {
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (entry.version === version && entry.expiresAt > now) return entry.page;
  entries.delete(key);
  return undefined;
};

/** Keeps `page` for a second when `key` was asked for once within the last second; else notes the ask. */
export const cachePage = (key: string, version: number, page: CachedPage, now = Date.now()) => {
  const firstAskEnds = askedOnce.get(key);
  askedOnce.delete(key);
  if (firstAskEnds === undefined || firstAskEnds <= now) {
    askedOnce.set(key, now + ttlMs);
    keepAtMost(askedOnce, askedOnceCapacity);
    return;
  }
  entries.delete(key);
  entries.set(key, { version, expiresAt: now + ttlMs, page });
  keepAtMost(entries, capacity);
};
