/**
 * GET /products' parsed query string as a SearchQuery: size keys normalised, colours lower-cased,
 * both without repeats, prices in cents, and the clock's time only for the searches that depend on
 * it. One place, so the route and the search profile (bench/search-profile.ts) ask the index the
 * same questions.
 */
import type { z } from "zod";
import { normalizeSize } from "../../core/sizes";
import { parseCents } from "../../core/money";
import type { ZSearchProductsRequest } from "../catalog.schema";
import { isTimeDependent, type SearchQuery } from "./types";

/**
 * A price bound in cents, at most the largest price a row holds (int4): the request accepts up to
 * 999,999,999.99, and a bound past every price filters the same (pg-search compares it with an int4
 * column, which refused the larger number with a 500).
 */
const priceBound = (amount: string) => Math.min(parseCents(amount), 2_147_483_647);

export const searchQueryOf = (
  input: z.output<typeof ZSearchProductsRequest>,
  now: Date,
): SearchQuery => {
  const query: SearchQuery = {
    text: input.q,
    categoryPath: input.category,
    sizeKeys: [...new Set(input.size.map(normalizeSize))],
    colors: [...new Set(input.color.map((color) => color.toLowerCase()))],
    brands: input.brand,
    storeSlug: input.store,
    minCents: input.min_price === undefined ? undefined : priceBound(input.min_price),
    maxCents: input.max_price === undefined ? undefined : priceBound(input.max_price),
    sort: input.sort,
    page: input.page,
    perPage: input.per_page,
  };
  if (input.on_sale) query.onSale = true;
  if (isTimeDependent(query)) query.nowMs = now.getTime();
  return query;
};
