/**
 * Which of evaluate()'s paths answers a query, decided once: evaluate() follows it, and the search
 * thread orders its queue by the cost it implies (search-worker.ts, answer-queue.ts).
 * - word: one word a thirty-second of the slots or more have, nothing else (word-search.ts: its kept
 *   counts and the sort buckets of its page);
 * - broad: words most items have, nothing else (broad-text.ts: the browse counts less the misses);
 * - priceRange: a price range, no word and no facet filter (price-range.ts: counts per price group);
 * - browse: no word, no price, no facet filter but the category (browse-counts.ts);
 * - scan: everything else, one pass over the candidates (scan.ts).
 */
import { isTimeDependent, type SearchQuery } from "../types";
import { isBroadText } from "./broad-text";
import type { CatalogIndex } from "./catalog-index";
import type { PostingList } from "./postings";
import { drivenPlanOf } from "./filter-driven";
import { categoryMembership } from "./filter-tables";

export type QueryPlan = {
  path: "word" | "broad" | "priceRange" | "browse" | "scan";
  /** q's lexemes without those every slot has with the same weight (`selectiveLexemes`). */
  lexemes: string[];
  /** Their posting lists (undefined for a lexeme no item has). */
  lists: (PostingList | undefined)[];
};

/**
 * The lexemes without those every slot has with the same weight: they match every item and add the
 * same to every score, so they change neither the hits nor their order. The generated catalogue
 * writes "Colour:" and "Sizes:" into every description, and such a word with a filter or a price
 * was the slowest search at a million items (a scan of every slot; docs/performance.md, "Issue 28:
 * the tail at a million items"); without it the search is the one of its other words or a browse.
 */
const selectiveLexemes = (index: CatalogIndex, lexemes: string[]) =>
  lexemes.filter((lexeme) => {
    const list = index.postings.get(lexeme);
    return !list || index.postings.uniformWeight(list, index.slotCount) === 0;
  });

/**
 * A word common enough to keep counts for (word-counts.ts): rarer ones are a short scan, and each
 * kept word costs about 60 KB.
 */
const isCountedWord = (list: PostingList | undefined, slotCount: number) =>
  list !== undefined && list.count * 32 >= slotCount;

export const planOf = (
  index: CatalogIndex,
  query: SearchQuery,
  allLexemes: string[],
): QueryPlan => {
  const lexemes = selectiveLexemes(index, allLexemes);
  const lists = lexemes.map((lexeme) => index.postings.get(lexeme));
  const plan = (path: QueryPlan["path"]) => ({ path, lexemes, lists });
  const hasValueFilter =
    query.brands.length > 0 ||
    query.sizeKeys.length > 0 ||
    query.colors.length > 0 ||
    Boolean(query.storeSlug);
  const hasPrice = query.minCents !== undefined || query.maxCents !== undefined;
  // on_sale takes the scan, and price_drop with q too (price-drops.ts): the broad path counts the
  // whole catalogue ahead of time; a browse by price_drop takes the browse counts less the drops.
  if (lexemes.length > 0) {
    const isTextOnly =
      !hasValueFilter && !query.categoryPath && !hasPrice && !isTimeDependent(query);
    if (isTextOnly && lists.length === 1 && isCountedWord(lists[0], index.slotCount))
      return plan("word");
    return isTextOnly && isBroadText(lists, index.slotCount) ? plan("broad") : plan("scan");
  }
  if (hasValueFilter || query.onSale) return plan("scan");
  if (!hasPrice) return plan("browse");
  return !query.categoryPath && query.sort !== "price_drop" ? plan("priceRange") : plan("scan");
};

/**
 * About how many slots answering `query` visits, known before running it (an estimate that only
 * orders the search thread's queue): none for a browse page, broad words or a word whose counts
 * are kept, the word's postings for one not kept yet, the edges' price groups (about 1/32 of the
 * slots) for a price range, the rarest word's postings for words, for filters without a word the
 * slots they let through (filter-driven.ts) or every slot.
 */
export const evaluationCost = (index: CatalogIndex, query: SearchQuery, allLexemes: string[]) => {
  const { path, lexemes, lists } = planOf(index, query, allLexemes);
  if (path === "broad" || path === "browse") return 0;
  // A word's first search counts its postings; later ones read the counts.
  if (path === "word") return index.browse.words.has(lists[0]!) ? 0 : lists[0]!.count;
  if (path === "priceRange") return index.slotCount / 32;
  if (lexemes.length) return Math.min(...lists.map((list) => list?.count ?? 0));
  if (query.onSale) return index.slotCount;
  const categoryFilter = query.categoryPath ? categoryMembership(index, query.categoryPath) : null;
  return drivenPlanOf(index, query, categoryFilter)?.work ?? index.slotCount;
};
