/**
 * About how many slots an evaluation of `query` visits, known before running it: the search thread
 * answers the cheapest waiting request first (search-worker.ts), so a browse page or a narrow word
 * does not wait behind a 20 ms scan of a broad filter. An estimate, not a promise: it only orders
 * the queue.
 */
import type { SearchQuery } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { isBroadText } from "./broad-text";
import { selectiveLexemes } from "./evaluate";
import { isPriceRangeOnly } from "./price-range";

export const evaluationCost = (index: CatalogIndex, query: SearchQuery, allLexemes: string[]) => {
  const lexemes = selectiveLexemes(index, allLexemes);
  // Only the one or two price groups its edges cut are scanned (price-range.ts).
  if (isPriceRangeOnly(query, lexemes)) return index.slotCount / 32;
  const hasFilter =
    query.brands.length > 0 ||
    query.sizeKeys.length > 0 ||
    query.colors.length > 0 ||
    Boolean(query.storeSlug) ||
    query.minCents !== undefined ||
    query.maxCents !== undefined ||
    query.onSale === true;
  if (!lexemes.length) return hasFilter ? index.slotCount : 0;
  const lists = lexemes.map((lexeme) => index.postings.get(lexeme));
  // Broad words alone are answered from the browse counts (broad-text.ts).
  if (!hasFilter && !query.categoryPath && isBroadText(lists, index.slotCount)) return 0;
  // Every lexeme must match: the rarest one bounds the candidates.
  return Math.min(...lists.map((list) => list?.count ?? 0));
};
