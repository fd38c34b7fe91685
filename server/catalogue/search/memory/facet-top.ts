/**
 * The top values of a facet from its counts: count descending, then value in code-point order, at
 * most `limit`. Packs (count, rank) into one number; a facet with more values than `limit` (stores:
 * thousands at a million items) keeps only the best `limit` keys in a small min-heap instead of
 * sorting every key, since this runs five times on every search.
 */
import type { FacetValue } from "../types";

/** id of each rank, per ranks array (ranks arrays are cached and replaced when values are added). */
const inverses = new WeakMap<Int32Array, Int32Array>();
const idsByRank = (ranks: Int32Array) => {
  let ids = inverses.get(ranks);
  if (!ids) {
    ids = new Int32Array(ranks.length);
    for (let id = 0; id < ranks.length; id++) ids[ranks[id]] = id;
    inverses.set(ranks, ids);
  }
  return ids;
};

/** Reused heap storage (the selection is synchronous). */
let heap = new Float64Array(128);

const siftDown = (keys: Float64Array, size: number) => {
  let at = 0;
  const key = keys[0];
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && keys[child + 1] < keys[child]) child++;
    if (keys[child] >= key) break;
    keys[at] = keys[child];
    at = child;
  }
  keys[at] = key;
};

const siftUp = (keys: Float64Array, at: number) => {
  const key = keys[at];
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (keys[parent] <= key) break;
    keys[at] = keys[parent];
    at = parent;
  }
  keys[at] = key;
};

/** Facet values with a non-zero count, best first. `ranks[id]` is the code-point rank of value id. */
export const topFacetValues = (
  counts: Uint32Array,
  values: readonly string[],
  ranks: Int32Array,
  limit: number,
): FacetValue[] => {
  if (limit <= 0) return [];
  const span = ranks.length + 1;
  if (heap.length < limit) heap = new Float64Array(limit);
  // A min-heap of the best keys so far: a larger key is more items, then an earlier value.
  let size = 0;
  for (let id = 0; id < counts.length; id++) {
    if (counts[id] === 0) continue;
    const key = counts[id] * span + (span - 1 - ranks[id]);
    if (size < limit) {
      heap[size] = key;
      siftUp(heap, size++);
    } else if (key > heap[0]) {
      heap[0] = key;
      siftDown(heap, size);
    }
  }
  const sorted = heap.subarray(0, size).sort();
  const idOfRank = idsByRank(ranks);
  const top: FacetValue[] = [];
  for (let i = size - 1; i >= 0; i--) {
    const count = Math.floor(sorted[i] / span);
    const rank = span - 1 - (sorted[i] - count * span);
    top.push({ value: values[idOfRank[rank]], count });
  }
  return top;
};
