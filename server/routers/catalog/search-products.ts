/** GET /products: a page of listed items with pagination and disjunctive facets. */
import { normalizeSize } from "../../domain/sizes";
import { parseCents } from "../../domain/money";
import { toProductSummary } from "../../http/serializers/product";
import type { SearchQuery } from "../../search/types";
import { scopedProcedure } from "../../trpc/procedures";
import { ZSearchProductsRequest, ZSearchProductsResponse } from "./catalog.schema";
import { productSummarySelect } from "./catalog.queries";

export const searchProducts = scopedProcedure("catalog:read")
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
    const hits = await ctx.search.search(query);
    const rows = hits.ids.length
      ? await ctx.db.item.findMany({ where: { id: { in: hits.ids } }, select: productSummarySelect })
      : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    return {
      data: hits.ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toProductSummary(row)] : [];
      }),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total: hits.total,
        last_page: Math.max(1, Math.ceil(hits.total / input.per_page)),
      },
      facets: hits.facets,
    };
  });
