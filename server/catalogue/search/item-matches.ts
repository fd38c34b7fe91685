/**
 * Whether one item matches a saved search, in memory: the same predicate GET /products applies
 * (pg-search.ts, the reference, and the memory index), written once for code that holds one item
 * and many searches (the search-watch matcher, server/search-watches). Text: every lexeme of
 * to_tsvector('english', q) is in the item's search_vector (the lexemes are read in SQL, so the
 * stemming is PostgreSQL's: `searchLexemesSql`, `readMatchFacts`); category: the path or anything
 * below it; sizes: any of the normalised size keys; colours: any, lower-cased; brands: any, exact;
 * store: the slug; prices inclusive. Only items that can be sold now match (listed: active, its
 * store can sell; and a unit left, as `available` says).
 */
import type { z } from "zod";
import { Prisma } from "../../generated/prisma/client";
import type { ZSearchProductsRequest } from "../catalog.schema";
import { searchQueryOf } from "./query-of-request";

/** A saved search's filters, normalised as search normalises them; `lexemes` are q's (searchLexemesSql). */
export type SearchFilter = {
  lexemes: readonly string[];
  categoryPath?: string;
  sizeKeys: readonly string[];
  colors: readonly string[];
  brands: readonly string[];
  storeSlug?: string;
  minCents?: number;
  maxCents?: number;
};

/** What matching reads of an item (readMatchFacts). */
export type ItemMatchFacts = {
  id: number;
  priceCents: number;
  brand: string | null;
  categoryPath: string | null;
  sizeKeys: readonly string[];
  colors: readonly string[];
  storeSlug: string;
  lexemes: readonly string[];
  /** Listed (active, its store can sell) with a unit left to buy. */
  canSellNow: boolean;
};

type SearchFields = Pick<
  z.output<typeof ZSearchProductsRequest>,
  "q" | "category" | "size" | "color" | "brand" | "store" | "min_price" | "max_price"
>;

/** The filters of a parsed GET /products query (without lexemes: q's are read in SQL), normalised by search's own `searchQueryOf`. */
export const searchFilterOf = (input: SearchFields): Omit<SearchFilter, "lexemes"> => {
  // Sorted by relevance and without on_sale, the query reads no clock: any instant will do.
  const query = searchQueryOf(
    { ...input, sort: "relevance", on_sale: false, page: 1, per_page: 1 },
    new Date(0),
  );
  return {
    categoryPath: query.categoryPath,
    sizeKeys: query.sizeKeys,
    colors: query.colors,
    brands: query.brands,
    storeSlug: query.storeSlug,
    minCents: query.minCents,
    maxCents: query.maxCents,
  };
};

/**
 * A category filter takes the path and everything below it ("Women" takes "Women > Coats"). No
 * string is built: the search-watch matcher asks this thousands of times an item.
 */
export const isInCategory = (itemPath: string | null, category: string) =>
  itemPath !== null &&
  itemPath.startsWith(category) &&
  (itemPath.length === category.length || itemPath.startsWith(" > ", category.length));

/** The category paths an item is found under: its own and each ancestor's. */
export const categoryPathsOf = (itemPath: string | null): string[] => {
  if (itemPath === null) return [];
  const parts = itemPath.split(" > ");
  return parts.map((_, index) => parts.slice(0, index + 1).join(" > "));
};

const anyOf = (wanted: readonly string[], has: readonly string[]) =>
  wanted.length === 0 || wanted.some((value) => has.includes(value));

/** True when GET /products with `filter` would list `item` now. */
export const itemMatchesFilter = (
  filter: SearchFilter,
  item: ItemMatchFacts,
  itemLexemes: ReadonlySet<string> = new Set(item.lexemes),
) =>
  item.canSellNow &&
  (filter.storeSlug === undefined || filter.storeSlug === item.storeSlug) &&
  (filter.minCents === undefined || item.priceCents >= filter.minCents) &&
  (filter.maxCents === undefined || item.priceCents <= filter.maxCents) &&
  (filter.brands.length === 0 || (item.brand !== null && filter.brands.includes(item.brand))) &&
  (filter.categoryPath === undefined || isInCategory(item.categoryPath, filter.categoryPath)) &&
  anyOf(filter.sizeKeys, item.sizeKeys) &&
  anyOf(filter.colors, item.colors) &&
  filter.lexemes.every((lexeme) => itemLexemes.has(lexeme));

/** q's lexemes as search makes them (to_tsvector('english', q), stop words dropped), as SQL over a text expression. */
export const searchLexemesSql = (text: Prisma.Sql) =>
  Prisma.sql`ARRAY(SELECT lexeme FROM unnest(to_tsvector('english', coalesce(${text}, ''))) ORDER BY lexeme)`;
