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
 *   (created_at desc, id desc), price_asc (price, id asc), price_desc (price desc, id desc),
 *   price_drop (ADR 0115): the items whose price dropped in the 7 days before `nowMs` first, by the
 *   largest drop ratio (high - price) / high (compared exactly), then id desc; high is the highest
 *   price in effect in the window: the price now and the old price of every kind-'price' change made
 *   after nowMs - 7 days. Every other item follows as newest (created_at desc, id desc).
 * - onSale (ADR 0115): only items whose latest kind-'price' change (by created_at, id) was made after
 *   nowMs - 30 days and whose old price is above the price now. Not a facet: like the price range it
 *   applies to the facets too.
 * - Facets are disjunctive: each is counted over the items matching every filter except its own.
 *   Values by count desc then value in code-point order (COLLATE "C"), at most 100. Category counts the top-level path and the full
 *   path of each item (once when they are the same).
 */
export const sortOrders = ["relevance", "newest", "price_asc", "price_desc", "price_drop"] as const;
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
  /** Only items on sale (see above). */
  onSale?: boolean;
  /**
   * The clock's time (epoch ms) for the time-dependent parts, price_drop and onSale; required with
   * them (isTimeDependent), absent otherwise so that the other searches stay cacheable.
   */
  nowMs?: number;
  page: number;
  perPage: number;
};

/** Whether the answer depends on the time: price_drop and onSale do. */
export const isTimeDependent = (query: SearchQuery) =>
  query.sort === "price_drop" || query.onSale === true;

/** The query's nowMs, which a time-dependent search cannot do without. */
export const nowOf = (query: SearchQuery) => {
  if (query.nowMs === undefined) throw new Error("a price_drop or on_sale search needs nowMs");
  return query.nowMs;
};

const dayMs = 86_400_000;
/** price_drop looks at the prices of the last 7 days; on_sale at a drop of the last 30. */
export const dropWindowMs = 7 * dayMs;
export const saleWindowMs = 30 * dayMs;

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
