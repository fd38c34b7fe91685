/** GET /products: a page of listed items with pagination and disjunctive facets. */
import { catalogSearch } from "./search";
import { summaryFromSource } from "./product-json";
import { searchQueryOf } from "./search/query-of-request";
import { isTimeDependent } from "./search/types";
import { procedure } from "../platform/trpc/procedures";
import { ZSearchProductsRequest, ZSearchProductsResponse } from "./catalog.schema";
import { loadProductSummaries } from "./store/products";
import { type CachedPage, cachePage, cachedPage } from "./search-page-cache";
import { watchCountsFor } from "./watch-counts";

export const searchProducts = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZSearchProductsRequest)
  .output(ZSearchProductsResponse)
  .query(async ({ ctx, input }) => {
    const query = searchQueryOf(input, ctx.clock.now());
    const key = JSON.stringify(query);
    const search = catalogSearch(ctx.db);
    // A search that depends on the time (price_drop, on_sale) is never shared: its answer moves with
    // the clock, not only with the index's version (ADR 0115).
    const version = isTimeDependent(query) ? undefined : search.version?.();
    let page: CachedPage | undefined =
      version !== undefined && !ctx.wantsFresh ? cachedPage(key, version) : undefined;
    if (!page) {
      const hits = await search.search(query);
      const byId = await loadProductSummaries(hits.ids);
      page = { hits, sources: hits.ids.flatMap((id) => byId.get(id) ?? []) };
      if (version !== undefined && version === search.version?.()) cachePage(key, version, page);
    }
    // Per viewer, after the shared cache (it holds nothing that depends on who asks).
    const watches = await watchCountsFor(
      ctx,
      page.sources.map((source) => source.id),
    );
    return {
      data: page.sources.map((source, index) => summaryFromSource(source, watches[index])),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total: page.hits.total,
        last_page: Math.max(1, Math.ceil(page.hits.total / input.per_page)),
      },
      facets: page.hits.facets,
    };
  });
