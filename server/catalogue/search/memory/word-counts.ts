/**
 * Counts kept per word, like the browse counts (browse-counts.ts) but over the listed items that
 * have one lexeme: by brand, size value, colour value, store, category, price and creation bucket,
 * and per weight by creation bucket (a word's relevance is its weight, then newest first). A search
 * of one word and nothing else then sums nothing and scans nothing: its facets and total are these
 * counts and its page comes from the few sort buckets it falls in (word-search.ts), where the scan
 * of every hit took 3-20 ms for a word a sixth of a million items have.
 *
 * A word's counts are made when first asked for (one pass over its postings) and then follow every
 * change through `contribute`, called with the browse counts' (a slot's postings never change: new
 * text is a new slot). At most `capacity` words are kept, the least recently asked for dropped; a
 * recount of the browse counts (a store opens or closes, the sort buckets re-balanced) drops them all.
 */
import { bucketCount } from "./bucket-order";
import { addSlot, type CountedIndex, type Counts, emptyCounts, isListed } from "./listed-counts";
import type { PostingList } from "./postings";

/** Weights are 1 to 8 (the best weight class of the lexeme in the item: 8/4/2/1). */
export const maxWeight = 8;

export type WordTotals = Counts & {
  /** Per weight w, the hits of that weight by creation bucket (entry w - 1; empty until one is seen). */
  byWeight: (Uint32Array | null)[];
};

/** The word's weight in `slot` (0 when the slot lacks it): a byte for a dense list, a binary search of a sparse one. */
export const weightIn = (list: PostingList, slot: number) => {
  if (list.dense) return list.dense[slot] ?? 0;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = list.slots[middle];
    if (at === slot) return list.scores[middle];
    if (at < slot) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
};

const addWeighted = (
  totals: WordTotals,
  index: CountedIndex,
  slot: number,
  weight: number,
  sign: 1 | -1,
) => {
  addSlot(totals, index, slot, sign);
  const byBucket = (totals.byWeight[weight - 1] ??= new Uint32Array(bucketCount));
  byBucket[index.buckets.createdBucket[slot]] += sign;
};

export class WordCounts {
  /** In order of last use (a Map keeps insertion order): the first is dropped when full. */
  private readonly byList = new Map<PostingList, WordTotals>();

  constructor(private readonly capacity = 128) {}

  has(list: PostingList) {
    return this.byList.has(list);
  }

  /** Follows a listed slot's change (the browse counts call it for listed slots only). */
  contribute(index: CountedIndex, slot: number, sign: 1 | -1) {
    for (const [list, totals] of this.byList) {
      const weight = weightIn(list, slot);
      if (weight !== 0) addWeighted(totals, index, slot, weight, sign);
    }
  }

  clear() {
    this.byList.clear();
  }

  /** The word's counts, read only (made now if they are not kept). */
  totalsOf(index: CountedIndex, list: PostingList): Readonly<WordTotals> {
    let totals = this.byList.get(list);
    if (totals) {
      this.byList.delete(list);
      this.byList.set(list, totals);
      return totals;
    }
    totals = { ...emptyCounts(), byWeight: Array.from({ length: maxWeight }, () => null) };
    const { dense } = list;
    if (dense) {
      for (let slot = 0; slot < index.slotCount; slot++)
        if (dense[slot] !== 0 && isListed(index, slot))
          addWeighted(totals, index, slot, dense[slot], 1);
    } else {
      for (let i = 0; i < list.length; i++)
        if (isListed(index, list.slots[i]))
          addWeighted(totals, index, list.slots[i], list.scores[i], 1);
    }
    if (this.byList.size >= this.capacity) this.byList.delete(this.byList.keys().next().value!);
    this.byList.set(list, totals);
    return totals;
  }
}
