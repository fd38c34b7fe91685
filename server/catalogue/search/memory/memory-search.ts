/**
 * The fast CatalogSearch: answers from the in-memory index of this process (catalog-sync.ts), with
 * exactly pg-search's semantics (server/catalogue/search/types.ts; checked by memory-search.integration.test.ts).
 * Until the index is built it answers through `fallback` (pg-search), and so it does a price_drop or
 * on_sale search at a time the index's recent prices do not cover (recent-prices.ts).
 */
import type { Db } from "../../../platform/db";
import { type CatalogSearch, isTimeDependent, nowOf } from "../types";
import type { CatalogSync } from "./catalog-sync";
import { evaluate } from "./evaluate";
import { createLexemeCache } from "./lexeme-cache";

/** A CatalogSearch over `sync`'s index, falling back to `fallback` while it is not built. */
export const createMemorySearch = (options: {
  db: Db;
  sync: CatalogSync;
  fallback: CatalogSearch;
}): CatalogSearch => {
  const lexemesOf = createLexemeCache(options.db);
  return {
    name: "memory",
    search: async (query) => {
      if (!options.sync.index) return options.fallback.search(query);
      const lexemes = await lexemesOf(query.text);
      // Read the index after the await: a rebuild may have swapped it meanwhile.
      const index = options.sync.index;
      // A time its recent prices cannot answer for (a clock far behind, or behind the newest change): the reference does.
      if (isTimeDependent(query) && !index.prices.covers(nowOf(query)))
        return options.fallback.search(query);
      return evaluate(index, query, lexemes);
    },
    priceWatchers: async (itemIds, viewerId) => {
      const watchers = options.sync.index ? options.sync.watchers : undefined;
      if (!watchers) return options.fallback.priceWatchers(itemIds, viewerId);
      return itemIds.map((id) => watchers.count(id, viewerId));
    },
    version: () => options.sync.index?.version,
  };
};
