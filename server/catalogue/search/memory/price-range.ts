/**
 * A price range without words or facet filters ("everything from $40 to $200"): before, a scan of
 * every slot (12-19 ms at a million items, the slowest searches of the mix). Now the price groups
 * wholly inside the range give their precomputed counts (browse-counts.ts), the slots of the one
 * or two groups the range's edges cut are scanned exactly (scan.ts), and the page is chosen from the
 * bucket histograms as a browse page is (page-select.ts): about 1/32 of the slots visited.
 */
import type { SearchHits, SearchQuery } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { addInto, bucketsPerPriceGroup, priceGroups } from "./browse-counts";
import { bucketCount } from "./bucket-order";
import { facetsFrom, totalSizes } from "./facets-of";
import { selectBrowsePage } from "./page-select";
import { scanUnfiltered } from "./scan";
import { reusedBuffer, zeroedCounts } from "./scratch-arrays";

/**
 * The counts of every listed item priced within [minPrice, maxPrice] (facets by value, hits, hits
 * per sort bucket, by price or by date): the groups wholly inside from the browse counts, the cut
 * ones scanned. Its scratch arrays are its own, so a scan's counts in use (filter-driven.ts) are
 * left alone.
 */
export const priceRangeTotals = (
  index: CatalogIndex,
  minPrice: number,
  maxPrice: number,
  isByPrice: boolean,
) => {
  const sortBucket = isByPrice ? index.buckets.priceBucket : index.buckets.createdBucket;
  const spans = Array.from({ length: priceGroups }, (_, group) =>
    index.buckets.priceSpan(group * bucketsPerPriceGroup, (group + 1) * bucketsPerPriceGroup - 1),
  );
  const isWhole = (group: number) => spans[group][0] >= minPrice && spans[group][1] <= maxPrice;
  const isCut = (group: number) =>
    !isWhole(group) && spans[group][0] <= maxPrice && spans[group][1] >= minPrice;
  const totals = index.browse.priceGroupTotals(totalSizes(index), isWhole);

  // The cut groups' slots, scanned as any candidates are.
  let candidateCount = 0;
  let candidates = reusedBuffer("priceRangeCandidates", 0);
  for (let group = 0; group < priceGroups; group++) {
    if (!isCut(group)) continue;
    const low = group * bucketsPerPriceGroup;
    index.buckets.priceOrder.forEach(
      low,
      low + bucketsPerPriceGroup - 1,
      index.slotCount,
      (slot) => {
        if (candidateCount === candidates.length) {
          const grown = reusedBuffer("priceRangeCandidates", candidateCount * 2 + 1024);
          grown.set(candidates.subarray(0, candidateCount));
          candidates = grown;
        }
        candidates[candidateCount++] = slot;
      },
    );
  }
  // In slot order: taken in price order they are scattered over every column, a cache miss each
  // (about 200 ns a slot at a million items; the sort and an ordered scan cost a third of that).
  candidates.subarray(0, candidateCount).sort();
  const histogram = zeroedCounts("edgeHistogram", bucketCount);
  const edge = {
    brandCounts: zeroedCounts("edgeBrand", index.brands.size),
    sizeSetCounts: zeroedCounts("edgeSizeSet", index.sizes.size),
    colorSetCounts: zeroedCounts("edgeColorSet", index.colors.size),
    categoryCounts: zeroedCounts("edgeCategory", index.categoryPaths.length),
    storeCounts: zeroedCounts("edgeStore", index.storeSlugs.length),
  };
  const edgeHits = scanUnfiltered(index, {
    candidates,
    candidateCount,
    candidateScores: null,
    minPrice,
    maxPrice,
    brandFilter: null,
    sizeFilter: null,
    colorFilter: null,
    categoryFilter: null,
    storeTarget: -1,
    sortBucket,
    histogram,
    hits: reusedBuffer("priceRangeHits", candidateCount),
    scores: reusedBuffer("priceRangeScores", 0),
    ...edge,
  });
  totals.hitCount += edgeHits;
  addInto(histogram, isByPrice ? totals.price : totals.created);
  addInto(totals.brand, edge.brandCounts);
  addInto(totals.size, index.sizes.expand(edge.sizeSetCounts));
  addInto(totals.color, index.colors.expand(edge.colorSetCounts));
  addInto(totals.perCategory, edge.categoryCounts);
  addInto(totals.store, edge.storeCounts);
  return { totals, histogram };
};

export const evaluatePriceRange = (index: CatalogIndex, query: SearchQuery): SearchHits => {
  const minPrice = query.minCents ?? -Infinity;
  const maxPrice = query.maxCents ?? Infinity;
  const isByPrice = query.sort === "price_asc" || query.sort === "price_desc";
  const { totals, histogram } = priceRangeTotals(index, minPrice, maxPrice, isByPrice);
  const total = totals.hitCount;

  const { isActive, store, storeListed, price } = index;
  const pageSlots = selectBrowsePage({
    index,
    sort: query.sort,
    histogram,
    total,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    admits: (slot) =>
      // Listed (listed-counts.ts isListed), written out: this runs per slot of the page's buckets,
      // and an imported function is a getter call each time under tsx (+10% a category page).
      isActive[slot] !== 0 &&
      storeListed[store[slot]] !== 0 &&
      price[slot] >= minPrice &&
      price[slot] <= maxPrice,
  });
  return {
    ids: pageSlots.map((slot) => index.itemId[slot]),
    total,
    facets: facetsFrom(index, totals),
  };
};
