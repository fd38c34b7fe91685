/**
 * Answers a SearchQuery from the index in one pass over the candidates (every slot, or the text
 * matches): an item failing no facet filter is a hit and counts in every facet; an item failing
 * exactly one facet's filter counts in that facet only (facets are disjunctive: each ignores its own
 * filter); price and text are not facets, so failing them excludes the item from everything.
 * The pass counts dictionary ids (brand, size list, colour list, category, store) and expands them
 * into facet values afterwards; it also counts hits per sort bucket for page selection.
 */
import { type Facets, type SearchHits, type SearchQuery, facetLimit } from "../types";
import type { CatalogIndex } from "./catalog-index";
import { topFacetValues } from "./facet-top";
import { selectBrowsePage, selectPage } from "./page-select";
import { bucketCount } from "./sort-buckets";
import { matchText } from "./text-match";

const brandBit = 1;
const sizeBit = 2;
const colorBit = 4;
const categoryBit = 8;
const storeBit = 16;

const emptyFacets = (): Facets => ({ brand: [], size: [], color: [], category: [], store: [] });

/** Reused buffers: evaluate() is synchronous, and nothing it returns points into them. */
const scratch = { identity: new Int32Array(0), hits: new Int32Array(0), scores: new Int32Array(0) };

/** 0..count-1: browse runs every slot through the same loop as text matches. */
const everySlot = (count: number) => {
  if (scratch.identity.length < count) {
    scratch.identity = new Int32Array(Math.ceil(count * 1.25));
    for (let i = 0; i < scratch.identity.length; i++) scratch.identity[i] = i;
  }
  return scratch.identity;
};

const hitBuffers = (count: number) => {
  if (scratch.hits.length < count) {
    scratch.hits = new Int32Array(Math.ceil(count * 1.25));
    scratch.scores = new Int32Array(scratch.hits.length);
  }
  return scratch;
};

/** Membership over ids, shifted by one so that id -1 ("none") reads entry 0, which is never set. */
const membership = (size: number, ids: number[]) => {
  const table = new Uint8Array(size + 1);
  for (const id of ids) if (id >= 0) table[id + 1] = 1;
  return table;
};

const categoryMembership = (index: CatalogIndex, path: string) => {
  const below = `${path} > `;
  return membership(index.categoryPaths.length, index.categoryPaths.flatMap((candidate, id) => (candidate === path || candidate.startsWith(below) ? [id] : [])));
};

/** Category facet value counts from per-category counts: each item counts its top level and its path. */
const categoryValueCounts = (index: CatalogIndex, perCategory: Uint32Array) => {
  const counts = new Uint32Array(index.categoryValues.size);
  for (let category = 0; category < perCategory.length; category++) {
    const count = perCategory[category];
    if (count === 0) continue;
    if (index.categoryTop[category] >= 0) counts[index.categoryTop[category]] += count;
    counts[index.categorySelf[category]] += count;
  }
  return counts;
};

type ScanInput = {
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

/** The scan without facet filters (browse, q, price): every listed candidate in range is a hit. */
const scanUnfiltered = (index: CatalogIndex, input: ScanInput) => {
  const { isActive, store, storeListed, price, brand, category, sizeSet, colorSet } = index;
  const { candidates, candidateCount, candidateScores, minPrice, maxPrice, sortBucket, histogram, hits, scores } = input;
  const { brandCounts, sizeSetCounts, colorSetCounts, categoryCounts, storeCounts } = input;
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
};

/** The scan with facet filters: hits count everywhere, items failing one facet's filter count there. */
const scanFiltered = (index: CatalogIndex, input: ScanInput) => {
  const { isActive, store, storeListed, price, brand, category, sizeSet, colorSet } = index;
  const { candidates, candidateCount, candidateScores, minPrice, maxPrice, sortBucket, histogram, hits, scores } = input;
  const { brandFilter, sizeFilter, colorFilter, categoryFilter, storeTarget } = input;
  const { brandCounts, sizeSetCounts, colorSetCounts, categoryCounts, storeCounts } = input;
  let hitCount = 0;
  for (let k = 0; k < candidateCount; k++) {
    const slot = candidates[k];
    if (isActive[slot] === 0) continue;
    const itemStore = store[slot];
    if (storeListed[itemStore] === 0) continue;
    const itemPrice = price[slot];
    if (itemPrice < minPrice || itemPrice > maxPrice) continue;
    const itemBrand = brand[slot];
    const itemSizes = sizeSet[slot];
    const itemColors = colorSet[slot];
    const itemCategory = category[slot];
    let failed = 0;
    if (brandFilter !== null && brandFilter[itemBrand + 1] === 0) failed |= brandBit;
    if (sizeFilter !== null && sizeFilter[itemSizes] === 0) failed |= sizeBit;
    if (colorFilter !== null && colorFilter[itemColors] === 0) failed |= colorBit;
    if (categoryFilter !== null && categoryFilter[itemCategory + 1] === 0) failed |= categoryBit;
    if (storeTarget !== -1 && itemStore !== storeTarget) failed |= storeBit;
    if (failed === 0) {
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
    } else if (failed === storeBit) storeCounts[itemStore]++;
    // Failing two or more facet filters: counted nowhere.
  }
  return hitCount;
};

/** A browse page (no q, no filter but the category): facets and bucket counts are precomputed. */
const evaluateBrowse = (index: CatalogIndex, query: SearchQuery, categoryFilter: Uint8Array | null): SearchHits => {
  const totals = index.browse.totals(
    { brands: index.brands.size, sizes: index.sizes.values.size, colors: index.colors.values.size, stores: index.storeSlugs.length, categories: index.categoryPaths.length },
    categoryFilter,
  );
  const { isActive, store, storeListed, category } = index;
  const pageSlots = selectBrowsePage({
    index,
    sort: query.sort,
    histogram: query.sort === "price_asc" || query.sort === "price_desc" ? totals.price : totals.created,
    total: totals.hitCount,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    admits: (slot) => isActive[slot] !== 0 && storeListed[store[slot]] !== 0 && (categoryFilter === null || categoryFilter[category[slot] + 1] !== 0),
  });
  return {
    ids: pageSlots.map((slot) => index.itemId[slot]),
    total: totals.hitCount,
    facets: facetsFrom(index, { brand: totals.brand, size: totals.size, color: totals.color, perCategory: totals.perCategory, store: totals.store }),
  };
};

/** Counts per brand, size value, colour value, category index and store. */
type FacetCounts = { brand: Uint32Array; size: Uint32Array; color: Uint32Array; perCategory: Uint32Array; store: Uint32Array };

const facetsFrom = (index: CatalogIndex, counts: FacetCounts): Facets => ({
  brand: topFacetValues(counts.brand, index.brands.values, index.brands.ranks(), facetLimit),
  size: topFacetValues(counts.size, index.sizes.values.values, index.sizes.values.ranks(), facetLimit),
  color: topFacetValues(counts.color, index.colors.values.values, index.colors.values.ranks(), facetLimit),
  category: topFacetValues(categoryValueCounts(index, counts.perCategory), index.categoryValues.values, index.categoryValues.ranks(), facetLimit),
  store: topFacetValues(counts.store, index.storeSlugs, index.storeRanks(), facetLimit),
});

/** Runs `query` (with q already turned into PostgreSQL lexemes) against the index. */
export const evaluate = (index: CatalogIndex, query: SearchQuery, lexemes: string[]): SearchHits => {
  const text = lexemes.length ? matchText(index.postings, lexemes, index.slotCount, index.isActive) : null;
  if (text && text.count === 0) return { ids: [], total: 0, facets: emptyFacets() };
  const candidates = text ? text.slots : everySlot(index.slotCount);
  const candidateCount = text ? text.count : index.slotCount;
  const candidateScores = text ? text.scores : null;

  const minPrice = query.minCents ?? -2147483648;
  const maxPrice = query.maxCents ?? 2147483647;
  const brandFilter = query.brands.length ? membership(index.brands.size, query.brands.map((value) => index.brands.find(value))) : null;
  const sizeFilter = query.sizeKeys.length ? index.sizes.matching(query.sizeKeys) : null;
  const colorFilter = query.colors.length ? index.colors.matching(query.colors) : null;
  const categoryFilter = query.categoryPath ? categoryMembership(index, query.categoryPath) : null;
  const storeTarget = query.storeSlug ? (index.storeIndexBySlug.get(query.storeSlug) ?? -2) : -1;

  const isBrowse = !text && !brandFilter && !sizeFilter && !colorFilter && storeTarget === -1 && query.minCents === undefined && query.maxCents === undefined;
  if (isBrowse) return evaluateBrowse(index, query, categoryFilter);

  const brandCounts = new Uint32Array(index.brands.size);
  const sizeSetCounts = new Uint32Array(index.sizes.size);
  const colorSetCounts = new Uint32Array(index.colors.size);
  const categoryCounts = new Uint32Array(index.categoryPaths.length);
  const storeCounts = new Uint32Array(index.storeSlugs.length);
  // Relevance with q orders by score: page-select buckets those itself. The others use sort buckets.
  const isByScore = query.sort === "relevance" && candidateScores !== null;
  const sortBucket = query.sort === "price_asc" || query.sort === "price_desc" ? index.buckets.priceBucket : index.buckets.createdBucket;
  const histogram = new Uint32Array(bucketCount);
  const { hits, scores } = hitBuffers(candidateCount);
  const input: ScanInput = {
    candidates, candidateCount, candidateScores, minPrice, maxPrice, brandFilter, sizeFilter, colorFilter, categoryFilter, storeTarget,
    sortBucket, histogram, hits, scores, brandCounts, sizeSetCounts, colorSetCounts, categoryCounts, storeCounts,
  };
  const hasFacetFilter = brandFilter !== null || sizeFilter !== null || colorFilter !== null || categoryFilter !== null || storeTarget !== -1;
  const hitCount = hasFacetFilter ? scanFiltered(index, input) : scanUnfiltered(index, input);

  const hitList = { slots: hits, scores: isByScore ? scores : null, count: hitCount, histogram: isByScore ? null : histogram };
  const pageSlots = selectPage(index, hitList, query.sort, (query.page - 1) * query.perPage, query.perPage);
  const facets = facetsFrom(index, { brand: brandCounts, size: index.sizes.expand(sizeSetCounts), color: index.colors.expand(colorSetCounts), perCategory: categoryCounts, store: storeCounts });
  return { ids: pageSlots.map((slot) => index.itemId[slot]), total: hitCount, facets };
};
