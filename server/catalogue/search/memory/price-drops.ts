/**
 * on_sale and price_drop over the index (ADR 0115; semantics in server/catalogue/search/types.ts),
 * from its sparse recent prices (recent-prices.ts), so neither touches the scan's hot loop: on_sale
 * narrows the candidates to the few items on sale, and price_drop puts the hits with a drop (few,
 * sorted exactly) before the other hits, which keep the newest order's bucketed page selection.
 */
import { dropWindowMs, saleWindowMs } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { type Hits, selectPage } from "./page-select";
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

/** The page [offset, offset + limit) of price_drop: dropped hits by ratio then id desc, then the rest newest. */
export const selectDropPage = (options: {
  index: CatalogIndex;
  hits: Hits;
  highs: Map<number, number>;
  offset: number;
  limit: number;
}): number[] => {
  const { index, hits, highs, offset, limit } = options;
  const { price, itemId } = index;
  const dropped: number[] = [];
  const rest = reusedBuffer("dropRest", hits.count);
  let restCount = 0;
  for (let k = 0; k < hits.count; k++) {
    const slot = hits.slots[k];
    if (highs.has(slot)) dropped.push(slot);
    else rest[restCount++] = slot;
  }
  const drop = (slot: number) => highs.get(slot)! - price[slot];
  dropped.sort(
    (a, b) =>
      compareRatios(drop(b), highs.get(b)!, drop(a), highs.get(a)!) || itemId[b] - itemId[a],
  );
  const end = offset + limit;
  const page = dropped.slice(offset, end);
  if (end <= dropped.length) return page;
  const restOffset = Math.max(0, offset - dropped.length);
  return page.concat(
    selectPage(
      index,
      { slots: rest, scores: null, count: restCount, histogram: null },
      "newest",
      restOffset,
      end - dropped.length - restOffset,
    ),
  );
};
