/**
 * Facet filters without a selective word (no q, or only words every item has, and not on_sale):
 * instead of one scan of every slot (18-25 ms at a million items, the slowest 1% of the search mix;
 * docs/performance.md, "Issue 28"), the scan visits only the slots that can count.
 *
 * Facets are disjunctive (scan.ts): a hit counts in every facet, an item failing exactly one
 * filter counts in that filter's facet only. So, with the filters ordered by how many items they
 * let through (estimated from the browse counts):
 * - the hits and every facet but the first filter's are counted over the slots the first filter
 *   lets through (an item failing another filter alone passes the first one);
 * - the first filter's own facet is counted over the slots the second filter lets through, in a
 *   second scan whose hits are thrown away; with one filter only, its facet is every listed item
 *   in the price range: the browse counts, or the price range's (price-range.ts).
 * Each list of slots is one pass over one column. The answer is the full scan's exactly (the
 * equivalence test in filter-driven.test.ts); when the filters let most items through the full
 * scan is cheaper and is kept.
 */
import { bucketCount } from "./bucket-order";
import type { CatalogIndex } from "./catalog-index";
import { totalSizes } from "./facets-of";
import { membership } from "./filter-tables";
import { priceRangeTotals } from "./price-range";
import { type ScanInput, scanFiltered } from "./scan";
import { reusedBuffer, zeroedCounts } from "./scratch-arrays";
import { specialized } from "./specialized";
import type { SearchQuery } from "../types";

/** A facet with a filter, and the facet counts' key it fills (size and colour by value). */
type Facet = "brand" | "size" | "color" | "perCategory" | "store";

/** The facet filters of a query, as evaluate() builds them for the scan. */
type FacetFilters = Pick<
  ScanInput,
  "brandFilter" | "sizeFilter" | "colorFilter" | "categoryFilter" | "storeTarget"
>;

type Estimate = { facet: Facet; items: number };

/** A driven scan decided for a query: its filters, fewest items first, and its price range. */
export type DrivenPlan = { estimates: Estimate[]; work: number; hasPrice: boolean };

/**
 * The facet filters `query` has (each present whatever its values: an unknown one lets nothing
 * through, and still filters), fewest items first: each one's listed items from the browse counts
 * (a size or colour filter's sum over its values, an item with two of them counted twice).
 * `categoryFilter`: the query's category membership, when it names one.
 */
const filterEstimates = (
  index: CatalogIndex,
  query: SearchQuery,
  categoryFilter: Uint8Array | null,
): Estimate[] => {
  const listed = index.browse.listed();
  const sum = (counts: Uint32Array, ids: number[]) =>
    ids.reduce((total, id) => total + (id >= 0 && id < counts.length ? counts[id] : 0), 0);
  const estimates: Estimate[] = [];
  const add = (facet: Facet, counts: Uint32Array, ids: number[]) =>
    estimates.push({ facet, items: sum(counts, ids) });
  if (query.brands.length)
    add(
      "brand",
      listed.brand,
      query.brands.map((brand) => index.brands.find(brand)),
    );
  if (query.sizeKeys.length)
    add(
      "size",
      listed.size,
      query.sizeKeys.map((key) => index.sizes.values.find(key)),
    );
  if (query.colors.length)
    add(
      "color",
      listed.color,
      query.colors.map((color) => index.colors.values.find(color)),
    );
  if (categoryFilter)
    add(
      "perCategory",
      listed.category,
      index.categoryPaths.flatMap((_, category) =>
        categoryFilter[category + 1] ? [category] : [],
      ),
    );
  if (query.storeSlug)
    add("store", listed.store, [index.storeIndexBySlug.get(query.storeSlug) ?? -2]);
  return estimates.sort((a, b) => a.items - b.items);
};

/** A pass over one column costs about this share of a full scan's slot (which reads eight). */
const columnPassShare = 1 / 6;

/**
 * The driven scan of `query`'s facet filters (the caller's query has no selective word and is not
 * on sale), with about how many full-scan slots it costs (its column passes and the slots they
 * list, and with one filter the price range's cut groups); null without a facet filter, or when
 * that is not under a full scan by a margin worth its second pass.
 */
export const drivenPlanOf = (
  index: CatalogIndex,
  query: SearchQuery,
  categoryFilter: Uint8Array | null,
): DrivenPlan | null => {
  const estimates = filterEstimates(index, query, categoryFilter);
  if (estimates.length === 0) return null;
  const { slotCount } = index;
  const hasPrice = query.minCents !== undefined || query.maxCents !== undefined;
  const [first, second] = estimates;
  const work =
    second === undefined
      ? slotCount * columnPassShare + first.items + (hasPrice ? slotCount / 32 : 0)
      : 2 * slotCount * columnPassShare + first.items + second.items;
  return work < slotCount * 0.7 ? { estimates, work, hasPrice } : null;
};

/** The column `facet`'s filter reads, its membership table, and the shift from a value id to its entry. */
const columnOf = (
  index: CatalogIndex,
  facet: Facet,
  filters: FacetFilters,
): [column: Int32Array, admits: Uint8Array, shift: number] => {
  switch (facet) {
    case "brand":
      return [index.brand, filters.brandFilter!, 1];
    case "size":
      return [index.sizeSet, filters.sizeFilter!, 0];
    case "color":
      return [index.colorSet, filters.colorFilter!, 0];
    case "perCategory":
      return [index.category, filters.categoryFilter!, 1];
    case "store":
      return [index.store, membership(index.storeSlugs.length, [filters.storeTarget]), 1];
  }
};

/**
 * The pass of slotsPassing, compiled for its column and buffers (specialized.ts). It writes every
 * slot and moves past the admitted ones (tables hold 0 or 1) rather than branching on a test the
 * CPU cannot predict, so `into` has room for one more slot than it keeps.
 */
const passingLoop = specialized(
  (column: Int32Array, isActive: Uint8Array, into: Int32Array) =>
    (admits: Uint8Array, shift: number, slotCount: number) => {
      let count = 0;
      for (let slot = 0; slot < slotCount; slot++) {
        into[count] = slot;
        count += admits[column[slot] + shift] & isActive[slot];
      }
      return count;
    },
);

/** The live slots `facet`'s filter lets through, in slot order, into `into`; how many. */
const slotsPassing = (
  index: CatalogIndex,
  facet: Facet,
  filters: FacetFilters,
  into: Int32Array,
) => {
  const [column, admits, shift] = columnOf(index, facet, filters);
  return passingLoop(column, index.isActive, into)(admits, shift, index.slotCount);
};

/** The first filter's facet counts (size and colour by value) from a second scan over the slots the second filter lets through. */
const ownFacetFromSecond = (
  index: CatalogIndex,
  input: ScanInput,
  facet: Facet,
  second: Facet,
  slots: Int32Array,
) => {
  const count = slotsPassing(index, second, input, slots);
  const counts = {
    brandCounts: zeroedCounts("drivenBrand", index.brands.size),
    sizeSetCounts: zeroedCounts("drivenSizeSet", index.sizes.size),
    colorSetCounts: zeroedCounts("drivenColorSet", index.colors.size),
    categoryCounts: zeroedCounts("drivenCategory", index.categoryPaths.length),
    storeCounts: zeroedCounts("drivenStore", index.storeSlugs.length),
  };
  scanFiltered(index, {
    ...input,
    ...counts,
    candidates: slots,
    candidateCount: count,
    candidateScores: null,
    histogram: zeroedCounts("drivenHistogram", bucketCount),
    // Its hits are not wanted: written into the scores buffer, which a scan without scores leaves
    // unused (evaluate() sizes it for every slot).
    hits: input.scores,
  });
  switch (facet) {
    case "brand":
      return counts.brandCounts;
    case "size":
      return index.sizes.expand(counts.sizeSetCounts);
    case "color":
      return index.colors.expand(counts.colorSetCounts);
    case "perCategory":
      return counts.categoryCounts;
    case "store":
      return counts.storeCounts;
  }
};

/**
 * The driven scan of `input` (every slot a candidate, no scores) by `plan`: the hits, histogram
 * and counts are written into `input`'s arrays as scanFiltered writes them, but the first filter's
 * own facet, returned beside the hit count to replace its counts (size and colour by value).
 */
export const scanDriven = (index: CatalogIndex, input: ScanInput, plan: DrivenPlan) => {
  const [first, second] = plan.estimates;
  const slots = reusedBuffer("drivenSlots", index.slotCount);
  const count = slotsPassing(index, first.facet, input, slots);
  const hitCount = scanFiltered(index, { ...input, candidates: slots, candidateCount: count });
  const ownCounts =
    second !== undefined
      ? ownFacetFromSecond(index, input, first.facet, second.facet, slots)
      : plan.hasPrice
        ? priceRangeTotals(index, input.minPrice, input.maxPrice, false).totals[first.facet]
        : index.browse.totals(totalSizes(index), null)[first.facet];
  return { hitCount, own: { facet: first.facet, counts: ownCounts } };
};
