/**
 * Answers a SearchQuery from the index: browse pages from the precomputed browse counts, a price
 * range alone from those kept per price group (price-range.ts), one word alone from its kept counts
 * (word-search.ts), everything else with one scan over the candidates (every slot, or the text
 * matches; scan.ts; facet filters without a word scan the slots they let through instead of every
 * slot: filter-driven.ts), then the page (page-select.ts) and the top facet values.
 */
import { type Facets, type SearchHits, type SearchQuery, nowOf } from "../types";
import {
  droppedHighs,
  keepOnSale,
  onSaleSlots,
  selectDropBrowsePage,
  selectDropPage,
} from "./price-drops";
import type { CatalogIndex } from "./catalog-index";
import { facetsFrom, totalSizes } from "./facets-of";
import { evaluatePriceRange } from "./price-range";
import { planOf } from "./query-plan";
import { selectBrowsePage, selectPage } from "./page-select";
import { bucketCount } from "./bucket-order";
import { type ScanInput, scanFiltered, scanUnfiltered } from "./scan";
import { drivenPlanOf, scanDriven } from "./filter-driven";
import { categoryMembership, membership } from "./filter-tables";
import type { FacetCounts } from "./browse-counts";
import { matchText } from "./text-match";
import { evaluateBroadText } from "./broad-text";
import type { PostingList } from "./postings";
import { zeroedCounts } from "./scratch-arrays";
import { evaluateWord } from "./word-search";

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

/** A q most items match, and nothing else: browse totals minus the items missing a word (broad-text.ts). */
const evaluateBroad = (
  index: CatalogIndex,
  query: SearchQuery,
  lists: PostingList[],
): SearchHits => {
  const { totals, pageSlots } = evaluateBroadText({
    index,
    lists,
    totals: browseTotals(index, null),
    sort: query.sort,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
  });
  return {
    ids: pageSlots.map((slot) => index.itemId[slot]),
    total: totals.hitCount,
    facets: facetsFrom(index, totals),
  };
};

const browseTotals = (index: CatalogIndex, categoryFilter: Uint8Array | null) =>
  index.browse.totals(totalSizes(index), categoryFilter);

/** A browse page (no q, no filter but the category): facets and bucket counts are precomputed. */
const evaluateBrowse = (
  index: CatalogIndex,
  query: SearchQuery,
  categoryFilter: Uint8Array | null,
): SearchHits => {
  const totals = browseTotals(index, categoryFilter);
  const { isActive, store, storeListed, category } = index;
  const page = {
    index,
    total: totals.hitCount,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    admits: (slot: number) =>
      // Listed (listed-counts.ts isListed), written out: this runs per slot of the page's buckets,
      // and an imported function is a getter call each time under tsx (+10% a category page).
      isActive[slot] !== 0 &&
      storeListed[store[slot]] !== 0 &&
      (categoryFilter === null || categoryFilter[category[slot] + 1] !== 0),
  };
  const pageSlots =
    query.sort === "price_drop"
      ? selectDropBrowsePage({
          ...page,
          highs: droppedHighs(index, nowOf(query)),
          histogram: totals.created,
        })
      : selectBrowsePage({
          ...page,
          sort: query.sort,
          histogram:
            query.sort === "price_asc" || query.sort === "price_desc"
              ? totals.price
              : totals.created,
        });
  return {
    ids: pageSlots.map((slot) => index.itemId[slot]),
    total: totals.hitCount,
    facets: facetsFrom(index, totals),
  };
};

/** Runs `query` (with q already turned into PostgreSQL lexemes) against the index. */
export const evaluate = (
  index: CatalogIndex,
  query: SearchQuery,
  allLexemes: string[],
): SearchHits => {
  const { path, lexemes, lists } = planOf(index, query, allLexemes);
  if (path === "word") return evaluateWord(index, lists[0]!, query);
  if (path === "broad") return evaluateBroad(index, query, lists as PostingList[]);
  if (path === "priceRange") return evaluatePriceRange(index, query);
  if (path === "browse")
    return evaluateBrowse(
      index,
      query,
      query.categoryPath ? categoryMembership(index, query.categoryPath) : null,
    );
  const text = lexemes.length
    ? matchText(index.postings, lexemes, index.slotCount, index.isActive)
    : null;
  if (text && text.count === 0) return { ids: [], total: 0, facets: emptyFacets() };
  let candidates = text ? text.slots : everySlot(index.slotCount);
  let candidateCount = text ? text.count : index.slotCount;
  let candidateScores = text ? text.scores : null;
  if (query.onSale) {
    const onSale = onSaleSlots(index, nowOf(query));
    const kept = text
      ? keepOnSale(text, onSale)
      : { slots: onSale, scores: null, count: onSale.length };
    if (kept.count === 0) return { ids: [], total: 0, facets: emptyFacets() };
    candidates = kept.slots;
    candidateCount = kept.count;
    candidateScores = kept.scores;
  }

  const minPrice = query.minCents ?? -2147483648;
  const maxPrice = query.maxCents ?? 2147483647;
  const brandFilter = query.brands.length
    ? membership(
        index.brands.size,
        query.brands.map((value) => index.brands.find(value)),
      )
    : null;
  const sizeFilter = query.sizeKeys.length ? index.sizes.matching(query.sizeKeys) : null;
  const colorFilter = query.colors.length ? index.colors.matching(query.colors) : null;
  const categoryFilter = query.categoryPath ? categoryMembership(index, query.categoryPath) : null;
  const storeTarget = query.storeSlug ? (index.storeIndexBySlug.get(query.storeSlug) ?? -2) : -1;

  const brandCounts = zeroedCounts("brand", index.brands.size);
  const sizeSetCounts = zeroedCounts("sizeSet", index.sizes.size);
  const colorSetCounts = zeroedCounts("colorSet", index.colors.size);
  const categoryCounts = zeroedCounts("category", index.categoryPaths.length);
  const storeCounts = zeroedCounts("store", index.storeSlugs.length);
  // Relevance with q orders by score: page-select buckets those itself. The others use sort buckets.
  const isByScore = query.sort === "relevance" && candidateScores !== null;
  const sortBucket =
    query.sort === "price_asc" || query.sort === "price_desc"
      ? index.buckets.priceBucket
      : index.buckets.createdBucket;
  const histogram = zeroedCounts("histogram", bucketCount);
  const { hits, scores } = hitBuffers(candidateCount);
  const input: ScanInput = {
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
    sortBucket,
    histogram,
    hits,
    scores,
    brandCounts,
    sizeSetCounts,
    colorSetCounts,
    categoryCounts,
    storeCounts,
  };
  const hasFacetFilter =
    brandFilter !== null ||
    sizeFilter !== null ||
    colorFilter !== null ||
    categoryFilter !== null ||
    storeTarget !== -1;
  // Facet filters over every slot (no selective word, not on sale): only the slots they let through
  // are scanned when that is cheaper (filter-driven.ts).
  const plan =
    hasFacetFilter && text === null && !query.onSale
      ? drivenPlanOf(index, query, categoryFilter)
      : null;
  const driven = plan ? scanDriven(index, input, plan) : null;
  const hitCount =
    driven?.hitCount ??
    (hasFacetFilter ? scanFiltered(index, input) : scanUnfiltered(index, input));

  const hitList = {
    slots: hits,
    scores: isByScore ? scores : null,
    count: hitCount,
    histogram: isByScore ? null : histogram,
  };
  const offset = (query.page - 1) * query.perPage;
  const pageSlots =
    query.sort === "price_drop"
      ? selectDropPage({
          index,
          hits: hitList,
          highs: droppedHighs(index, nowOf(query)),
          offset,
          limit: query.perPage,
        })
      : selectPage(index, hitList, query.sort, offset, query.perPage);
  const counts: FacetCounts = {
    brand: brandCounts,
    size: index.sizes.expand(sizeSetCounts),
    color: index.colors.expand(colorSetCounts),
    perCategory: categoryCounts,
    store: storeCounts,
  };
  if (driven) counts[driven.own.facet] = driven.own.counts;
  const facets = facetsFrom(index, counts);
  return { ids: pageSlots.map((slot) => index.itemId[slot]), total: hitCount, facets };
};
