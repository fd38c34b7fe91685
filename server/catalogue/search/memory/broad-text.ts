/**
 * A q matching most of the catalogue ("colour" is in every generated description) with no other
 * filter: rather than listing and counting a million hits, start from the browse totals of the whole
 * catalogue and subtract the listed items that miss a word. Only used when every word's list is
 * dense (a byte per slot), so "has every word" is a lookup per word.
 */
import type { PostingList } from "./postings";
import type { BrowseTotals } from "./browse-counts";
import type { CatalogIndex } from "./catalog-index";
import { selectBrowsePage, spanOf } from "./page-select";
import { bucketCount } from "./bucket-order";
import type { SortOrder } from "../types";

let scratch = new Uint16Array(0);
/** A reused per-slot score array (the evaluation is synchronous). */
const scoreBuffer = (slotCount: number) => {
  if (scratch.length < slotCount) scratch = new Uint16Array(Math.ceil(slotCount * 1.25));
  return scratch;
};

export type BroadTextResult = { totals: BrowseTotals; pageSlots: number[] };

/** True when the faster path applies: every list dense and the rarest covering at least 30% of slots. */
export const isBroadText = (lists: (PostingList | undefined)[], slotCount: number) =>
  lists.length > 0 && lists.every((list) => list?.dense && list.count >= slotCount * 0.3);

/** Facet totals, hit count and the page for a broad q (sort orders as in server/catalogue/search/types.ts). */
export const evaluateBroadText = (options: {
  index: CatalogIndex;
  lists: PostingList[];
  totals: BrowseTotals;
  sort: SortOrder;
  offset: number;
  limit: number;
}): BroadTextResult => {
  const { index, totals, sort } = options;
  const dense = options.lists.map((list) => list.dense!);
  const { isActive, store, storeListed, brand, category, sizeSet, colorSet } = index;
  const { createdBucket, priceBucket } = index.buckets;
  const isByScore = sort === "relevance";
  const maxScore = 8 * dense.length;
  const shift = Math.max(0, Math.ceil(Math.log2(((maxScore + 1) * bucketCount) / 65536)));
  const perLevel = bucketCount >> shift;
  const scoreHistogram = isByScore ? new Uint32Array((maxScore + 1) * perLevel) : null;
  // Every listed slot's score (0 = misses a word), computed once: the page pass reads it again.
  const slotScores = scoreBuffer(index.slotCount);
  for (let slot = 0; slot < index.slotCount; slot++) {
    let score = 0;
    if (isActive[slot] !== 0 && storeListed[store[slot]] !== 0) {
      for (let l = 0; l < dense.length; l++) {
        const weight = dense[l][slot];
        if (weight === 0) {
          score = -1;
          break;
        }
        score += weight;
      }
    }
    slotScores[slot] = Math.max(0, score);
    if (score === 0) continue; // not listed: in no total
    if (score > 0) {
      if (scoreHistogram)
        scoreHistogram[(maxScore - score) * perLevel + (createdBucket[slot] >> shift)]++;
      continue;
    }
    // A listed item without every word: take it out of the catalogue-wide totals.
    totals.hitCount--;
    if (brand[slot] >= 0) totals.brand[brand[slot]]--;
    for (const size of index.sizes.members[sizeSet[slot]]) totals.size[size]--;
    for (const color of index.colors.members[colorSet[slot]]) totals.color[color]--;
    if (category[slot] >= 0) totals.perCategory[category[slot]]--;
    totals.store[store[slot]]--;
    totals.created[createdBucket[slot]]--;
    totals.price[priceBucket[slot]]--;
  }
  const admits = (slot: number) => slotScores[slot] !== 0;
  if (!scoreHistogram) {
    const histogram = sort === "price_asc" || sort === "price_desc" ? totals.price : totals.created;
    return {
      totals,
      pageSlots: selectBrowsePage({
        index,
        sort,
        histogram,
        total: totals.hitCount,
        offset: options.offset,
        limit: options.limit,
        admits,
      }),
    };
  }
  if (options.offset >= totals.hitCount) return { totals, pageSlots: [] };
  // Relevance: the page's (score level, creation bucket) span, then the hits in it, sorted exactly.
  const end = Math.min(totals.hitCount, options.offset + options.limit);
  const span = spanOf(scoreHistogram, options.offset, end);
  const chosen: number[] = [];
  for (let slot = 0; slot < index.slotCount; slot++) {
    const score = slotScores[slot];
    if (score === 0) continue;
    const bucket = (maxScore - score) * perLevel + (createdBucket[slot] >> shift);
    if (bucket >= span.first && bucket <= span.last) chosen.push(slot);
  }
  const { created, itemId } = index;
  chosen.sort(
    (a, b) => slotScores[b] - slotScores[a] || created[b] - created[a] || itemId[b] - itemId[a],
  );
  return { totals, pageSlots: chosen.slice(options.offset - span.before, end - span.before) };
};
