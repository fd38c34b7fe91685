/**
 * Repeated identical searches share one answer (page ids, total, facets and the rows) while the
 * in-memory index has not changed, for at most one second: a hot URL then costs authentication, the
 * rate limit and serialisation only. Entries are keyed by the normalised query and the index
 * version (bumped by every catalogue change), and the one-second life bounds how old data outside
 * the index (stock, images) can be, like the index's own freshness target. Only the memory search
 * has a version; the PostgreSQL reference is never cached. Clients that send
 * `Cache-Control: no-cache` get a fresh answer.
 */
import type { ProductSummarySource } from "./product-json";
import type { SearchHits } from "./search/types";

export type CachedPage = { hits: SearchHits; sources: ProductSummarySource[] };

const ttlMs = 1000;
// A page with its facets is 20-60 KB: 256 of them bound the cache to about 10 MB.
const capacity = 256;
const entries = new Map<string, { version: number; expiresAt: number; page: CachedPage }>();

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

export const cachePage = (key: string, version: number, page: CachedPage, now = Date.now()) => {
  entries.delete(key);
  entries.set(key, { version, expiresAt: now + ttlMs, page });
  // A Map iterates in insertion order: the first key is the oldest entry.
  if (entries.size > capacity) entries.delete(entries.keys().next().value!);
};
