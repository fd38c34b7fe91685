/**
 * Slots grouped by sort bucket (a counting sort), so a browse page visits only the slots of the
 * buckets it falls in instead of every slot. Slots whose bucket changed since the grouping was made,
 * and slots added since, are kept in a short "moved" list and checked one by one; when that list
 * passes 5% of the slots the grouping is redone (O(slots), ~10 ms at a million).
 */
import { ensureLength } from "./growable";

/** How many coarse buckets a sort key falls in (sort-buckets.ts): 1,024, about as many items each. */
export const bucketCount = 1024;

export class BucketOrder {
  private order = new Int32Array(0);
  /** order[start[b] .. start[b + 1]) are the slots that were in bucket b. */
  private start = new Uint32Array(bucketCount + 1);
  private orderedCount = 0;
  private isMoved = new Uint8Array(0);
  private moved: number[] = [];

  constructor(private readonly bucketsOf: () => Uint16Array) {}

  /** Groups slots [0, slotCount) by their current bucket. */
  rebuild(slotCount: number) {
    const buckets = this.bucketsOf();
    const counts = new Uint32Array(bucketCount + 1);
    for (let slot = 0; slot < slotCount; slot++) counts[buckets[slot] + 1]++;
    for (let bucket = 0; bucket < bucketCount; bucket++) counts[bucket + 1] += counts[bucket];
    this.start = counts.slice();
    this.order = new Int32Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) this.order[counts[buckets[slot]]++] = slot;
    this.orderedCount = slotCount;
    this.isMoved = new Uint8Array(Math.max(slotCount, this.isMoved.length));
    this.moved = [];
  }

  /** Notes a slot just placed: a new slot, or one whose bucket changed, goes to the moved list. */
  placed(slot: number, hasChanged: boolean) {
    if (slot < this.orderedCount && !hasChanged) return;
    if (slot < this.isMoved.length && this.isMoved[slot] === 1) return;
    this.isMoved = ensureLength(this.isMoved, slot + 1);
    this.isMoved[slot] = 1;
    this.moved.push(slot);
  }

  /** Calls `visit` once for every slot now in buckets [low, high]. */
  forEach(low: number, high: number, slotCount: number, visit: (slot: number) => void) {
    if (this.moved.length > slotCount * 0.05 + 1000) this.rebuild(slotCount);
    const buckets = this.bucketsOf();
    for (let at = this.start[low], end = this.start[high + 1]; at < end; at++) {
      const slot = this.order[at];
      if (this.isMoved[slot] === 0) visit(slot);
    }
    for (const slot of this.moved) {
      if (slot < slotCount && buckets[slot] >= low && buckets[slot] <= high) visit(slot);
    }
  }

  bytes() {
    return this.order.byteLength + this.isMoved.byteLength;
  }
}
