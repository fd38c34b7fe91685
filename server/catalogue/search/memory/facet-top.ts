/**
 * The top values of a facet from its counts: count descending, then value in code-point order, at
 * most `limit`. Packs (count, rank) into one number so a native typed-array sort does the work.
 */
import type { FacetValue } from "../types";

/** Facet values with a non-zero count, best first. `ranks[id]` is the code-point rank of value id. */
export const topFacetValues = (
  counts: Uint32Array,
  values: readonly string[],
  ranks: Int32Array,
  limit: number,
): FacetValue[] => {
  const span = ranks.length + 1;
  const idOfRank = new Int32Array(span);
  const keys: number[] = [];
  for (let id = 0; id < counts.length; id++) {
    idOfRank[ranks[id]] = id;
    // A larger key sorts later: more items, then an earlier value in code-point order.
    if (counts[id] !== 0) keys.push(counts[id] * span + (span - 1 - ranks[id]));
  }
  const sorted = Float64Array.from(keys).sort();
  const top: FacetValue[] = [];
  for (let i = sorted.length - 1; i >= 0 && top.length < limit; i--) {
    const count = Math.floor(sorted[i] / span);
    const rank = span - 1 - (sorted[i] - count * span);
    top.push({ value: values[idOfRank[rank]], count });
  }
  return top;
};
