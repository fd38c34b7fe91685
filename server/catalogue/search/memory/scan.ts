/**
 * The one pass over a query's candidates (every slot, or the text matches): an item failing no facet
 * filter is a hit and counts in every facet; an item failing exactly one facet's filter counts in
 * that facet only (facets are disjunctive: each ignores its own filter); price and text are not
 * facets, so failing them excludes the item from everything. It counts dictionary ids (brand, size
 * list, colour list, category, store), expanded into facet values afterwards, and hits per sort
 * bucket for page selection. Two copies of the loop, so the common unfiltered one stays tight.
 * Each loop is compiled for the arrays it reads and writes (specialized.ts, ADR 0124), so its
 * factory uses nothing from this module.
 */
import type { CatalogIndex } from "./catalog-index";
import { specialized } from "./specialized";

export type ScanInput = {
  candidates: Int32Array;
  candidateCount: number;
  candidateScores: Int32Array | null;
  minPrice: number;
  maxPrice: number;
  brandFilter: Uint8Array | null;
  sizeFilter: Uint8Array | null;
  colorFilter: Uint8Array | null;
  categoryFilter: Uint8Array | null;
  storeTarget: number;
  sortBucket: Uint16Array;
  histogram: Uint32Array;
  hits: Int32Array;
  scores: Int32Array;
  brandCounts: Uint32Array;
  sizeSetCounts: Uint32Array;
  colorSetCounts: Uint32Array;
  categoryCounts: Uint32Array;
  storeCounts: Uint32Array;
};

/** The index's columns a scan reads, in the order the loop factories take them. */
const columnsOf = (index: CatalogIndex) =>
  [
    index.isActive,
    index.store,
    index.storeListed,
    index.price,
    index.brand,
    index.category,
    index.sizeSet,
    index.colorSet,
  ] as const;

/** The query's sort buckets and the arrays a scan writes, in the order the loop factories take them after the columns. */
const outputsOf = (input: ScanInput) =>
  [
    input.sortBucket,
    input.histogram,
    input.hits,
    input.scores,
    input.brandCounts,
    input.sizeSetCounts,
    input.colorSetCounts,
    input.categoryCounts,
    input.storeCounts,
  ] as const;

type Columns = ReturnType<typeof columnsOf>;
type Outputs = ReturnType<typeof outputsOf>;
type Loop<Filters extends unknown[]> = (
  candidates: Int32Array,
  candidateCount: number,
  candidateScores: Int32Array | null,
  minPrice: number,
  maxPrice: number,
  ...filters: Filters
) => number;

/**
 * The scan without facet filters (browse, q, price): every listed candidate in range is a hit.
 * Kept apart from the filtered scan on purpose: this is the hot loop of most queries, and it skips
 * the per-item filter bookkeeping entirely.
 */
const unfilteredLoop = specialized(
  (
    ...[
      isActive,
      store,
      storeListed,
      price,
      brand,
      category,
      sizeSet,
      colorSet,
      sortBucket,
      histogram,
      hits,
      scores,
      brandCounts,
      sizeSetCounts,
      colorSetCounts,
      categoryCounts,
      storeCounts,
    ]: [...Columns, ...Outputs]
  ): Loop<[]> =>
    (candidates, candidateCount, candidateScores, minPrice, maxPrice) => {
      let hitCount = 0;
      for (let k = 0; k < candidateCount; k++) {
        const slot = candidates[k];
        if (isActive[slot] === 0) continue;
        const itemStore = store[slot];
        if (storeListed[itemStore] === 0) continue;
        const itemPrice = price[slot];
        if (itemPrice < minPrice || itemPrice > maxPrice) continue;
        if (candidateScores !== null) scores[hitCount] = candidateScores[k];
        hits[hitCount++] = slot;
        histogram[sortBucket[slot]]++;
        const itemBrand = brand[slot];
        if (itemBrand >= 0) brandCounts[itemBrand]++;
        sizeSetCounts[sizeSet[slot]]++;
        colorSetCounts[colorSet[slot]]++;
        const itemCategory = category[slot];
        if (itemCategory >= 0) categoryCounts[itemCategory]++;
        storeCounts[itemStore]++;
      }
      return hitCount;
    },
);

/** The scan with facet filters: hits count everywhere, items failing one facet's filter count there. */
const filteredLoop = specialized(
  (
    ...[
      isActive,
      store,
      storeListed,
      price,
      brand,
      category,
      sizeSet,
      colorSet,
      sortBucket,
      histogram,
      hits,
      scores,
      brandCounts,
      sizeSetCounts,
      colorSetCounts,
      categoryCounts,
      storeCounts,
    ]: [...Columns, ...Outputs]
  ): Loop<
    [
      brandFilter: Uint8Array | null,
      sizeFilter: Uint8Array | null,
      colorFilter: Uint8Array | null,
      categoryFilter: Uint8Array | null,
      storeTarget: number,
    ]
  > => {
    // The facet a failing item misses, one bit each (literals: the factory is compiled on its own).
    const brandBit = 1;
    const sizeBit = 2;
    const colorBit = 4;
    const categoryBit = 8;
    const storeBit = 16;
    return (
      candidates,
      candidateCount,
      candidateScores,
      minPrice,
      maxPrice,
      brandFilter,
      sizeFilter,
      colorFilter,
      categoryFilter,
      storeTarget,
    ) => {
      let hitCount = 0;
      for (let k = 0; k < candidateCount; k++) {
        const slot = candidates[k];
        if (isActive[slot] === 0) continue;
        const itemStore = store[slot];
        if (storeListed[itemStore] === 0) continue;
        const itemPrice = price[slot];
        if (itemPrice < minPrice || itemPrice > maxPrice) continue;
        // Each filter's column is read when its filter is checked, and an item failing a second
        // filter is left at once (it counts nowhere): with selective filters most candidates stop
        // after two columns. A hit reads the columns no filter read.
        let itemBrand = 0;
        let itemSizes = 0;
        let itemColors = 0;
        let itemCategory = 0;
        let failed = 0;
        if (brandFilter !== null) {
          itemBrand = brand[slot];
          if (brandFilter[itemBrand + 1] === 0) failed = brandBit;
        }
        if (sizeFilter !== null) {
          itemSizes = sizeSet[slot];
          if (sizeFilter[itemSizes] === 0) {
            if (failed !== 0) continue;
            failed = sizeBit;
          }
        }
        if (colorFilter !== null) {
          itemColors = colorSet[slot];
          if (colorFilter[itemColors] === 0) {
            if (failed !== 0) continue;
            failed = colorBit;
          }
        }
        if (categoryFilter !== null) {
          itemCategory = category[slot];
          if (categoryFilter[itemCategory + 1] === 0) {
            if (failed !== 0) continue;
            failed = categoryBit;
          }
        }
        if (storeTarget !== -1 && itemStore !== storeTarget) {
          if (failed !== 0) continue;
          failed = storeBit;
        }
        if (failed === 0) {
          if (brandFilter === null) itemBrand = brand[slot];
          if (sizeFilter === null) itemSizes = sizeSet[slot];
          if (colorFilter === null) itemColors = colorSet[slot];
          if (categoryFilter === null) itemCategory = category[slot];
          if (candidateScores !== null) scores[hitCount] = candidateScores[k];
          hits[hitCount++] = slot;
          histogram[sortBucket[slot]]++;
          if (itemBrand >= 0) brandCounts[itemBrand]++;
          sizeSetCounts[itemSizes]++;
          colorSetCounts[itemColors]++;
          if (itemCategory >= 0) categoryCounts[itemCategory]++;
          storeCounts[itemStore]++;
        } else if (failed === brandBit) {
          if (itemBrand >= 0) brandCounts[itemBrand]++;
        } else if (failed === sizeBit) sizeSetCounts[itemSizes]++;
        else if (failed === colorBit) colorSetCounts[itemColors]++;
        else if (failed === categoryBit) {
          if (itemCategory >= 0) categoryCounts[itemCategory]++;
        } else storeCounts[itemStore]++;
      }
      return hitCount;
    };
  },
);

/** The scan without facet filters: its hit count; hits, scores, histogram and counts in `input`'s arrays. */
export const scanUnfiltered = (index: CatalogIndex, input: ScanInput) =>
  unfilteredLoop(...columnsOf(index), ...outputsOf(input))(
    input.candidates,
    input.candidateCount,
    input.candidateScores,
    input.minPrice,
    input.maxPrice,
  );

/** The scan with facet filters, written as scanUnfiltered's. */
export const scanFiltered = (index: CatalogIndex, input: ScanInput) =>
  filteredLoop(...columnsOf(index), ...outputsOf(input))(
    input.candidates,
    input.candidateCount,
    input.candidateScores,
    input.minPrice,
    input.maxPrice,
    input.brandFilter,
    input.sizeFilter,
    input.colorFilter,
    input.categoryFilter,
    input.storeTarget,
  );
