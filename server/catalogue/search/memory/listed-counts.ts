/**
 * The counts of a set of listed items (active, in a store that can sell) by brand, size value,
 * colour value, store, category and sort bucket, added to or taken from one slot at a time: what
 * the browse counts (browse-counts.ts) and a word's counts (word-counts.ts) are made of.
 */
import { ensureLength } from "./growable";
import { bucketCount } from "./bucket-order";

/** What the index exposes to the counts (kept narrow so the counts stay independent of it). */
export type CountedIndex = {
  slotCount: number;
  isActive: Uint8Array;
  store: Int32Array;
  storeListed: Uint8Array;
  category: Int32Array;
  brand: Int32Array;
  sizeSet: Int32Array;
  colorSet: Int32Array;
  /** Value ids of each size list / colour list. */
  sizes: { members: Int32Array[] };
  colors: { members: Int32Array[] };
  buckets: { priceBucket: Uint16Array; createdBucket: Uint16Array };
};

export type Counts = {
  listed: number;
  brand: Uint32Array;
  size: Uint32Array;
  color: Uint32Array;
  store: Uint32Array;
  /** Per category index: read for the price groups (a category's own counts know their category). */
  category: Uint32Array;
  created: Uint32Array;
  price: Uint32Array;
};

export const emptyCounts = (): Counts => ({
  listed: 0,
  brand: new Uint32Array(0),
  size: new Uint32Array(0),
  color: new Uint32Array(0),
  store: new Uint32Array(0),
  category: new Uint32Array(0),
  created: new Uint32Array(bucketCount),
  price: new Uint32Array(bucketCount),
});

const bump = (array: Uint32Array, id: number, sign: number) => {
  if (id >= array.length) array = ensureLength(array, id + 1);
  array[id] += sign;
  return array;
};

/** Adds (sign 1) or removes (sign -1) a listed slot's values to `counts`. */
export const addSlot = (counts: Counts, index: CountedIndex, slot: number, sign: 1 | -1) => {
  counts.listed += sign;
  if (index.brand[slot] >= 0) counts.brand = bump(counts.brand, index.brand[slot], sign);
  // By value, not by list: there are few sizes and colours but many distinct lists of them.
  for (const size of index.sizes.members[index.sizeSet[slot]])
    counts.size = bump(counts.size, size, sign);
  for (const color of index.colors.members[index.colorSet[slot]])
    counts.color = bump(counts.color, color, sign);
  counts.store = bump(counts.store, index.store[slot], sign);
  if (index.category[slot] >= 0)
    counts.category = bump(counts.category, index.category[slot], sign);
  counts.created[index.buckets.createdBucket[slot]] += sign;
  counts.price[index.buckets.priceBucket[slot]] += sign;
};

/** Whether a slot is in the listed catalogue: active, and its store can sell. */
export const isListed = (index: CountedIndex, slot: number) =>
  index.isActive[slot] !== 0 && index.storeListed[index.store[slot]] !== 0;
