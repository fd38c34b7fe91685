/**
 * The catalogue search interface. Two implementations answer it identically: `pg-search.ts`, the
 * straightforward PostgreSQL reference (the correctness oracle), and the fast one used to serve.
 *
 * Semantics both must follow exactly:
 * - Listed = item status active, store open, able to take payment and able to ship.
 * - text: every lexeme of to_tsvector('english', q) must be in the item's search_vector. A q with no
 *   lexemes (only stop words) filters nothing. Relevance score = sum over the lexemes of the best
 *   weight class the lexeme occurs in (A 8, B 4, C 2, D 1): integer, so ties are exact.
 * - Orders: relevance (score desc, created_at desc, id desc; newest when no lexemes), newest
 *   (created_at desc, id desc), price_asc (price, id asc), price_desc (price desc, id desc).
 * - Facets are disjunctive: each is counted over the items matching every filter except its own.
 *   Values by count desc then value in code-point order (COLLATE "C"), at most 100. Category counts the top-level path and the full
 *   path of each item (once when they are the same).
 */
export const sortOrders = ["relevance", "newest", "price_asc", "price_desc"] as const;
export type SortOrder = (typeof sortOrders)[number];

export type SearchQuery = {
  text?: string;
  categoryPath?: string;
  /** Normalised size keys (server/core/sizes.ts). */
  sizeKeys: string[];
  /** Lower-case colours. */
  colors: string[];
  brands: string[];
  storeSlug?: string;
  minCents?: number;
  maxCents?: number;
  sort: SortOrder;
  page: number;
  perPage: number;
};

export type FacetValue = { value: string; count: number };
export const facetNames = ["brand", "size", "color", "category", "store"] as const;
export type FacetName = (typeof facetNames)[number];
export type Facets = Record<FacetName, FacetValue[]>;

export type SearchHits = { ids: number[]; total: number; facets: Facets };

export type CatalogSearch = {
  name: string;
  search: (query: SearchQuery) => Promise<SearchHits>;
  /**
   * For each of `itemIds`, how many people other than `viewerId` have a live price watch or alert on
   * it (server/catalogue/search/watchers.ts). Not part of `search`'s answer: that is cached and shared by every
   * viewer, this depends on who asks.
   */
  priceWatchers: (itemIds: readonly number[], viewerId: string | undefined) => Promise<number[]>;
  /** Changes whenever the catalogue the answers come from changes; undefined when not tracked. */
  version?: () => number | undefined;
};

export const facetLimit = 100;
/** Score of a lexeme by the best weight class it occurs in. */
export const weightScores = { A: 8, B: 4, C: 2, D: 1 } as const;
