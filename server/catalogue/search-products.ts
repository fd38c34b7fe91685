/** GET /products: a page of listed items with pagination and disjunctive facets. */
import type { z } from "zod";
import { catalogSearch } from "./search";
import { summaryFromSource } from "./product-json";
import { searchQueryOf } from "./search/query-of-request";
import { isTimeDependent } from "./search/types";
import { procedure } from "../platform/trpc/procedures";
import { ZSearchProductsRequest, type ZSearchProductsResponse } from "./catalog.schema";
import { loadProductSummaries } from "./store/products";
import type { WatchCounts } from "./product-json";
import { type CachedPage, cachePage, cachedPage } from "./search-page-cache";
import { watchCountsFor } from "./watch-counts";

/**
 * The one procedure without `.output()`: the busiest answer, about 50 items and 500 facet values,
 * and zod's parse copies all of it on every request (about a third of what a search allocates at a
 * million items, ADR 0125). The compiler holds the answer to the schema's type (`satisfies`, no
 * extra keys) and search-products.integration.test.ts parses every answer it checks.
 */
export const searchProducts = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZSearchProductsRequest)
  .query(async ({ ctx, input }) => {
    const query = searchQueryOf(input, ctx.clock.now());
    const key = JSON.stringify(query);
    const search = catalogSearch(ctx.db);
    // A search that depends on the time (price_drop, on_sale) is never shared: its answer moves with
    // the clock, not only with the index's version (ADR 0115).
    const version = isTimeDependent(query) ? undefined : search.version?.();
    let page: CachedPage | undefined =
      version !== undefined && !ctx.wantsFresh ? cachedPage(key, version) : undefined;
    // The watcher counts are per viewer, so never in the shared cache; for a new page they are asked
    // for beside its rows rather than after them (one wait less a request).
    const watchesOf = async (ids: number[]) => {
      const counts = await watchCountsFor(ctx, ids);
      return new Map(ids.map((id, index) => [id, counts[index]]));
    };
    let watches: Map<number, WatchCounts>;
    if (!page) {
      const hits = await search.search(query);
      const [byId, counts] = await Promise.all([
        loadProductSummaries(hits.ids),
        watchesOf(hits.ids),
      ]);
      page = { hits, sources: hits.ids.flatMap((id) => byId.get(id) ?? []) };
      watches = counts;
      if (version !== undefined && version === search.version?.()) cachePage(key, version, page);
    } else watches = await watchesOf(page.sources.map((source) => source.id));
    return {
      data: page.sources.map((source) => summaryFromSource(source, watches.get(source.id))),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total: page.hits.total,
        last_page: Math.max(1, Math.ceil(page.hits.total / input.per_page)),
      },
      facets: page.hits.facets,
    } satisfies z.output<typeof ZSearchProductsResponse>;
  });
