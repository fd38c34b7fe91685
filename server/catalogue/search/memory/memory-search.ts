/**
 * The fast CatalogSearch: answers from an in-memory index (catalog-sync.ts, served by an IndexHost:
 * index-host.ts), with exactly pg-search's semantics (server/catalogue/search/types.ts; checked by
 * memory-search.integration.test.ts). Whenever the index cannot answer (not built yet, its thread
 * restarting, a price_drop or on_sale search at a time its recent prices do not cover) the
 * `fallback` (pg-search) does.
 */
import type { CatalogSearch } from "../types";
import type { IndexHost } from "./index-host";
import { createLexemeCache } from "./lexeme-cache";

/** A CatalogSearch over `host`'s index, falling back to `fallback` when it cannot answer. */
export const createMemorySearch = (options: {
  host: IndexHost;
  fallback: CatalogSearch;
}): CatalogSearch => {
  const lexemesOf = createLexemeCache();
  const { host, fallback } = options;
  return {
    name: "memory",
    search: async (query) => {
      if (host.version() === undefined) return fallback.search(query);
      // A thread that dies mid-request is no answer either: the reference gives one.
      const hits = await host.search(query, await lexemesOf(query.text)).catch(() => undefined);
      return hits ?? fallback.search(query);
    },
    priceWatchers: async (itemIds, viewerId) =>
      (await host.priceWatchers(itemIds, viewerId).catch(() => undefined)) ??
      fallback.priceWatchers(itemIds, viewerId),
    version: () => host.version(),
  };
};
