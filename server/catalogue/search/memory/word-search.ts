/**
 * A search of one word and nothing else (no filter, no price, no category, not by price drop or on
 * sale) from the word's kept counts (word-counts.ts): its total and facets are those counts, and
 * its page is read from the sort buckets it falls in, as a browse page's is (page-select.ts), with
 * "has the word" added to what a slot must be. By relevance the buckets are (weight, creation
 * bucket): the order is weight first, then newest, as in the scan (page-select.ts selectByScore).
 */
import type { SearchHits, SortOrder } from "../types";
import { addCounts, addInto, type BrowseTotals, emptyTotals } from "./browse-counts";
import { bucketCount } from "./bucket-order";
import type { CatalogIndex } from "./catalog-index";
import { facetsFrom, totalSizes } from "./facets-of";
import { isListed } from "./listed-counts";
import { comparator, selectBrowsePage, spanOf } from "./page-select";
import type { PostingList } from "./postings";
import { maxWeight, weightIn, type WordTotals } from "./word-counts";

/** Relevance: weight descending, then the creation buckets (newest first) within a weight. */
const selectByWeight = (
  index: CatalogIndex,
  list: PostingList,
  word: Readonly<WordTotals>,
  offset: number,
  end: number,
) => {
  // Level l holds weight maxWeight - l, so the levels run from the heaviest weight down.
  const histogram = new Uint32Array(maxWeight * bucketCount);
  for (let level = 0; level < maxWeight; level++) {
    const byBucket = word.byWeight[maxWeight - level - 1];
    if (byBucket) histogram.set(byBucket, level * bucketCount);
  }
  const span = spanOf(histogram, offset, end);
  const chosen: number[] = [];
  const weightOf = new Map<number, number>();
  const firstLevel = Math.floor(span.first / bucketCount);
  const lastLevel = Math.floor(span.last / bucketCount);
  for (let level = firstLevel; level <= lastLevel; level++) {
    const weight = maxWeight - level;
    const low = level === firstLevel ? span.first % bucketCount : 0;
    const high = level === lastLevel ? span.last % bucketCount : bucketCount - 1;
    index.buckets.createdOrder.forEach(low, high, index.slotCount, (slot) => {
      if (!isListed(index, slot) || weightIn(list, slot) !== weight) return;
      chosen.push(slot);
      weightOf.set(slot, weight);
    });
  }
  const newest = comparator(index, "newest");
  chosen.sort((a, b) => weightOf.get(b)! - weightOf.get(a)! || newest(a, b));
  return chosen.slice(offset - span.before, end - span.before);
};

export const evaluateWord = (
  index: CatalogIndex,
  list: PostingList,
  query: { sort: SortOrder; page: number; perPage: number },
): SearchHits => {
  const word = index.browse.words.totalsOf(index, list);
  const totals: BrowseTotals = emptyTotals(totalSizes(index));
  addCounts(totals, word);
  addInto(totals.perCategory, word.category);
  const offset = (query.page - 1) * query.perPage;
  const end = Math.min(totals.hitCount, offset + query.perPage);
  const isPrice = query.sort === "price_asc" || query.sort === "price_desc";
  const pageSlots =
    offset >= totals.hitCount
      ? []
      : query.sort === "relevance"
        ? selectByWeight(index, list, word, offset, end)
        : selectBrowsePage({
            index,
            sort: query.sort,
            histogram: isPrice ? totals.price : totals.created,
            total: totals.hitCount,
            offset,
            limit: query.perPage,
            admits: (slot) => isListed(index, slot) && weightIn(list, slot) !== 0,
          });
  return {
    ids: pageSlots.map((slot) => index.itemId[slot]),
    total: totals.hitCount,
    facets: facetsFrom(index, totals),
  };
};
