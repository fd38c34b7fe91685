/** GET /products: a page of listed items with pagination and disjunctive facets. */
import { catalogSearch } from "./search";
import { normalizeSize } from "../core/sizes";
import { parseCents } from "../core/money";
import { summaryFromSource } from "./product-json";
import type { SearchQuery } from "./search/types";
import { procedure } from "../platform/trpc/procedures";
import { ZSearchProductsRequest, ZSearchProductsResponse } from "./catalog.schema";
import { loadProductSummaries } from "./store/products";
import { type CachedPage, cachePage, cachedPage } from "./search-page-cache";
import { watchCountsFor } from "./watch-counts";

export const searchProducts = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZSearchProductsRequest)
  .output(ZSearchProductsResponse)
  .query(async ({ ctx, input }) => {
    const query: SearchQuery = {
      text: input.q,
      categoryPath: input.category,
      sizeKeys: [...new Set(input.size.map(normalizeSize))],
      colors: [...new Set(input.color.map((color) => color.toLowerCase()))],
      brands: input.brand,
      storeSlug: input.store,
      minCents: input.min_price === undefined ? undefined : parseCents(input.min_price),
      maxCents: input.max_price === undefined ? undefined : parseCents(input.max_price),
      sort: input.sort,
      page: input.page,
      perPage: input.per_page,
    };
    const key = JSON.stringify(query);
    const search = catalogSearch(ctx.db);
    const version = search.version?.();
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
