/**
 * on_sale and price_drop over the index (ADR 0115; semantics in server/catalogue/search/types.ts),
 * from its sparse recent prices (recent-prices.ts), so neither touches the scan's hot loop: on_sale
 * narrows the candidates to the few items on sale, and price_drop puts the hits with a drop (few,
 * sorted exactly) before the other hits, which keep the newest order's bucketed page selection.
 */
import { dropWindowMs, saleWindowMs } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { type Hits, selectBrowsePage, selectPage } from "./page-select";
import { reusedBuffer } from "./scratch-arrays";

/** Slots of the items on sale at `nowMs`: latest change in the 30 days before, from a higher price. */
export const onSaleSlots = (index: CatalogIndex, nowMs: number): Int32Array => {
  const slots: number[] = [];
  index.prices.forEach(nowMs - dropWindowMs, (itemId, latestMs, previousCents) => {
    const slot = index.slotOf(itemId);
    if (slot >= 0 && latestMs > nowMs - saleWindowMs && previousCents > index.price[slot])
      slots.push(slot);
  });
  return Int32Array.from(slots).sort();
};

/** The candidates (with their scores) that are also on sale. */
export const keepOnSale = (
  candidates: { slots: Int32Array; scores: Int32Array | null; count: number },
  onSale: Int32Array,
) => {
  const onSaleSet = new Set(onSale);
  const slots: number[] = [];
  const scores: number[] = [];
  for (let k = 0; k < candidates.count; k++) {
    if (!onSaleSet.has(candidates.slots[k])) continue;
    slots.push(candidates.slots[k]);
    if (candidates.scores) scores.push(candidates.scores[k]);
  }
  return {
    slots: Int32Array.from(slots),
    scores: candidates.scores ? Int32Array.from(scores) : null,
    count: slots.length,
  };
};

/** Each item whose price dropped in the 7 days before `nowMs`, by slot: the highest price in them. */
export const droppedHighs = (index: CatalogIndex, nowMs: number): Map<number, number> => {
  const highs = new Map<number, number>();
  index.prices.forEach(nowMs - dropWindowMs, (itemId, _latestMs, _previousCents, highCents) => {
    const slot = index.slotOf(itemId);
    if (slot >= 0 && highCents > index.price[slot]) highs.set(slot, highCents);
  });
  return highs;
};

/** a/b against c/d (positive int4 values) exactly: products past 2^53 are compared as BigInt. */
const compareRatios = (a: number, b: number, c: number, d: number) => {
  const left = a * d;
  const right = c * b;
  if (left <= Number.MAX_SAFE_INTEGER && right <= Number.MAX_SAFE_INTEGER) return left - right;
  const exact = BigInt(a) * BigInt(d) - BigInt(c) * BigInt(b);
  return exact > 0n ? 1 : exact < 0n ? -1 : 0;
};

/** Sorts dropped slots by drop ratio, largest first, then item id descending. */
const sortDropped = (index: CatalogIndex, dropped: number[], highs: Map<number, number>) => {
  const { price, itemId } = index;
  const drop = (slot: number) => highs.get(slot)! - price[slot];
  return dropped.sort(
    (a, b) =>
      compareRatios(drop(b), highs.get(b)!, drop(a), highs.get(a)!) || itemId[b] - itemId[a],
  );
};

/** Positions [offset, offset + limit): the sorted dropped hits, then `rest(offset, limit)` of the others. */
const dropFirst = (
  dropped: number[],
  offset: number,
  limit: number,
  rest: (offset: number, limit: number) => number[],
) => {
  const end = offset + limit;
  const page = dropped.slice(offset, end);
  if (end <= dropped.length) return page;
  const restOffset = Math.max(0, offset - dropped.length);
  return page.concat(rest(restOffset, end - dropped.length - restOffset));
};

/** The page of price_drop over a scan's hits: dropped hits by ratio then id desc, then the rest newest. */
export const selectDropPage = (options: {
  index: CatalogIndex;
  hits: Hits;
  highs: Map<number, number>;
  offset: number;
  limit: number;
}): number[] => {
  const { index, hits, highs } = options;
  const dropped: number[] = [];
  const rest = reusedBuffer("dropRest", hits.count);
  let restCount = 0;
  for (let k = 0; k < hits.count; k++) {
    const slot = hits.slots[k];
    if (highs.has(slot)) dropped.push(slot);
    else rest[restCount++] = slot;
  }
  return dropFirst(
    sortDropped(index, dropped, highs),
    options.offset,
    options.limit,
    (offset, limit) =>
      selectPage(
        index,
        { slots: rest, scores: null, count: restCount, histogram: null },
        "newest",
        offset,
        limit,
      ),
  );
};

/**
 * The page of price_drop on a browse (no q, no filter but the category): the admitted dropped items
 * first, then the newest browse page over the precomputed creation counts less them, so a browse by
 * price_drop stays as cheap as one by newest.
 */
export const selectDropBrowsePage = (options: {
  index: CatalogIndex;
  highs: Map<number, number>;
  /** Admitted items per creation bucket, and their number. */
  histogram: Uint32Array;
  total: number;
  offset: number;
  limit: number;
  admits: (slot: number) => boolean;
}): number[] => {
  const { index, highs, admits } = options;
  const dropped = sortDropped(index, [...highs.keys()].filter(admits), highs);
  const histogram = options.histogram.slice();
  for (const slot of dropped) histogram[index.buckets.createdBucket[slot]]--;
  return dropFirst(dropped, options.offset, options.limit, (offset, limit) =>
    selectBrowsePage({
      index,
      sort: "newest",
      histogram,
      total: options.total - dropped.length,
      offset,
      limit,
      admits: (slot) => admits(slot) && !highs.has(slot),
    }),
  );
};
