/**
 * An evaluation's facets from its counts: per brand, size value, colour value, category index and
 * store, each facet's top values (facet-top.ts), categories counted at their top level and path.
 */
import { type Facets, facetLimit } from "../types";
import type { CatalogIndex } from "./catalog-index";
import type { FacetCounts } from "./browse-counts";
import { topFacetValues } from "./facet-top";

/** How many brands, size and colour values, stores and categories the index knows: the lengths of a count's arrays. */
export const totalSizes = (index: CatalogIndex) => ({
  brands: index.brands.size,
  sizes: index.sizes.values.size,
  colors: index.colors.values.size,
  stores: index.storeSlugs.length,
  categories: index.categoryPaths.length,
});

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

export const facetsFrom = (index: CatalogIndex, counts: FacetCounts): Facets => ({
  brand: topFacetValues(counts.brand, index.brands.values, index.brands.ranks(), facetLimit),
  size: topFacetValues(
    counts.size,
    index.sizes.values.values,
    index.sizes.values.ranks(),
    facetLimit,
  ),
  color: topFacetValues(
    counts.color,
    index.colors.values.values,
    index.colors.values.ranks(),
    facetLimit,
  ),
  category: topFacetValues(
    categoryValueCounts(index, counts.perCategory),
    index.categoryValues.values,
    index.categoryValues.ranks(),
    facetLimit,
  ),
  store: topFacetValues(counts.store, index.storeSlugs, index.storeRanks(), facetLimit),
});
