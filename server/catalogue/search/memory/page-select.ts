/**
 * One page of hits in exact sort order without sorting every hit: count the hits per coarse bucket
 * (sort-buckets.ts), find the buckets that hold positions [offset, offset + limit), and sort only
 * the hits in those. Bucket order agrees with the exact order, so the result is exact, and a deep
 * page costs the same two passes as the first one.
 */
import type { SortOrder } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { bucketCount } from "./bucket-order";
import { reusedBuffer, zeroedCounts } from "./scratch-arrays";

/**
 * Hits of a query: `scores` when ordering by relevance score; `histogram` (hits per raw price bucket
 * for the price orders, per creation bucket otherwise) when the scan already counted it.
 */
export type Hits = {
  slots: Int32Array;
  scores: Int32Array | null;
  count: number;
  histogram: Uint32Array | null;
};

type Span = { first: number; last: number; before: number };

/** The buckets (in sort order) holding positions [offset, end), and how many hits precede them. */
export const spanOf = (histogram: Uint32Array, offset: number, end: number): Span => {
  let first = 0;
  let before = 0;
  while (before + histogram[first] <= offset) before += histogram[first++];
  let last = first;
  let through = before + histogram[first];
  while (through < end) through += histogram[++last];
  return { first, last, before };
};

/** Exact comparators of the orders in server/catalogue/search/types.ts, on slots. */
export const comparator = (index: CatalogIndex, sort: SortOrder) => {
  const { price, created, itemId } = index;
  if (sort === "price_asc")
    return (a: number, b: number) => price[a] - price[b] || itemId[a] - itemId[b];
  if (sort === "price_desc")
    return (a: number, b: number) => price[b] - price[a] || itemId[b] - itemId[a];
  return (a: number, b: number) => created[b] - created[a] || itemId[b] - itemId[a];
};

/** Newest or price order: buckets are the slots' price or creation buckets. */
const selectByBucket = (
  index: CatalogIndex,
  hits: Hits,
  sort: SortOrder,
  offset: number,
  end: number,
) => {
  const { slots, count } = hits;
  const isPrice = sort === "price_asc" || sort === "price_desc";
  const buckets = isPrice ? index.buckets.priceBucket : index.buckets.createdBucket;
  let histogram = hits.histogram;
  if (!histogram) {
    histogram = new Uint32Array(bucketCount);
    for (let i = 0; i < count; i++) histogram[buckets[slots[i]]]++;
  }
  // Price descending walks the price buckets from the top.
  const isReversed = sort === "price_desc";
  const span = spanOf(isReversed ? histogram.slice().reverse() : histogram, offset, end);
  const low = isReversed ? bucketCount - 1 - span.last : span.first;
  const high = isReversed ? bucketCount - 1 - span.first : span.last;
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) {
    const bucket = buckets[slots[i]];
    if (bucket >= low && bucket <= high) chosen.push(slots[i]);
  }
  chosen.sort(comparator(index, sort));
  return chosen.slice(offset - span.before, end - span.before);
};

/** Relevance with q: score level first, then the creation bucket (coarser when there are many levels). */
const selectByScore = (
  index: CatalogIndex,
  hits: Hits & { scores: Int32Array },
  offset: number,
  end: number,
) => {
  const { slots, scores, count } = hits;
  const { createdBucket } = index.buckets;
  let maxScore = 0;
  for (let i = 0; i < count; i++) if (scores[i] > maxScore) maxScore = scores[i];
  const shift = Math.max(0, Math.ceil(Math.log2(((maxScore + 1) * bucketCount) / 65536)));
  const perLevel = bucketCount >> shift;
  const histogram = zeroedCounts("scoreHistogram", (maxScore + 1) * perLevel);
  // Each hit's bucket is kept, so the second pass reads it in order instead of looking the
  // creation bucket up again at a random slot (a cache miss per hit at a million items).
  const bucketOfHit = reusedBuffer("bucketOfHit", count);
  for (let i = 0; i < count; i++) {
    const bucket = (maxScore - scores[i]) * perLevel + (createdBucket[slots[i]] >> shift);
    bucketOfHit[i] = bucket;
    histogram[bucket]++;
  }
  const span = spanOf(histogram, offset, end);
  // Positions into slots/scores (not a slot-to-score map): the sort reads both arrays directly.
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) {
    const bucket = bucketOfHit[i];
    if (bucket >= span.first && bucket <= span.last) chosen.push(i);
  }
  const newest = comparator(index, "newest");
  chosen.sort((a, b) => scores[b] - scores[a] || newest(slots[a], slots[b]));
  return chosen.slice(offset - span.before, end - span.before).map((i) => slots[i]);
};

/**
 * A browse page from precomputed bucket counts (browse-counts.ts): only the slots in the page's
 * buckets are visited (bucket-order.ts), and `admits` says which of them are hits.
 */
export const selectBrowsePage = (options: {
  index: CatalogIndex;
  sort: SortOrder;
  histogram: Uint32Array;
  total: number;
  offset: number;
  limit: number;
  admits: (slot: number) => boolean;
}) => {
  const { index, sort, histogram, total, offset } = options;
  if (offset >= total) return [];
  const end = Math.min(total, offset + options.limit);
  const isPrice = sort === "price_asc" || sort === "price_desc";
  const isReversed = sort === "price_desc";
  const span = spanOf(isReversed ? histogram.slice().reverse() : histogram, offset, end);
  const low = isReversed ? bucketCount - 1 - span.last : span.first;
  const high = isReversed ? bucketCount - 1 - span.first : span.last;
  const chosen: number[] = [];
  const order = isPrice ? index.buckets.priceOrder : index.buckets.createdOrder;
  order.forEach(low, high, index.slotCount, (slot) => {
    if (options.admits(slot)) chosen.push(slot);
  });
  chosen.sort(comparator(index, sort));
  return chosen.slice(offset - span.before, end - span.before);
};

/** Slots of the page [offset, offset + limit), in order. */
export const selectPage = (
  index: CatalogIndex,
  hits: Hits,
  sort: SortOrder,
  offset: number,
  limit: number,
): number[] => {
  if (offset >= hits.count) return [];
  const end = Math.min(hits.count, offset + limit);
  if (sort === "relevance" && hits.scores)
    return selectByScore(index, { ...hits, scores: hits.scores }, offset, end);
  return selectByBucket(index, hits, sort, offset, end);
};
