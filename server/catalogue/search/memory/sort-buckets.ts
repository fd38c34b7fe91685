/**
 * Coarse sort keys for page selection: each slot's price and creation time fall in one of 1,024
 * buckets with about as many items each (quantiles of the catalogue). The bucket order agrees with
 * the exact order, so a page is found by counting hits per bucket and sorting only the buckets the
 * page falls in: deep pages cost two passes, never a full sort.
 */
import { BucketOrder, bucketCount } from "./bucket-order";
import { ensureLength } from "./growable";

/** Number of bounds <= value: the bucket of `value` given ascending bounds. */
const bucketOf = (bounds: Float64Array, value: number) => {
  let low = 0;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bounds[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
};

const quantiles = (values: Float64Array) => {
  values.sort();
  const bounds = new Float64Array(bucketCount - 1);
  for (let i = 0; i < bounds.length; i++)
    bounds[i] = values[Math.floor(((i + 1) * values.length) / bucketCount)] ?? Infinity;
  return bounds;
};

export class SortBuckets {
  /** Ascending price: bucket 0 is the cheapest. */
  priceBucket = new Uint16Array(0);
  /** Newest first: bucket 0 is the newest. */
  createdBucket = new Uint16Array(0);
  private priceBounds = new Float64Array(0);
  private createdBounds = new Float64Array(0);
  /** Slots placed since the bounds were computed; many new ones (all "newest") unbalance them. */
  placedSinceRebalance = 0;
  /** Slots grouped by bucket, for browse pages. */
  readonly priceOrder = new BucketOrder(() => this.priceBucket);
  readonly createdOrder = new BucketOrder(() => this.createdBucket);
  private isRebalancing = false;

  ensureSlots(capacity: number) {
    this.priceBucket = ensureLength(this.priceBucket, capacity);
    this.createdBucket = ensureLength(this.createdBucket, capacity);
  }

  place(slot: number, price: number, created: number) {
    const priceBucket = bucketOf(this.priceBounds, price);
    const createdBucket = bucketOf(this.createdBounds, -created);
    if (!this.isRebalancing) {
      this.priceOrder.placed(slot, priceBucket !== this.priceBucket[slot]);
      this.createdOrder.placed(slot, createdBucket !== this.createdBucket[slot]);
    }
    this.priceBucket[slot] = priceBucket;
    this.createdBucket[slot] = createdBucket;
    this.placedSinceRebalance++;
  }

  /**
   * The prices a slot in buckets [low, high] can have, as [least, most]: every slot is placed with
   * the current bounds (a rebalance re-places them all), and prices are whole cents, so bucket b
   * holds bounds[b - 1] <= price <= bounds[b] - 1.
   */
  priceSpan(low: number, high: number): [number, number] {
    const bounds = this.priceBounds;
    return [
      low === 0 ? -Infinity : bounds[low - 1],
      high >= bounds.length ? Infinity : bounds[high] - 1,
    ];
  }

  /** Recomputes the bounds from the current values and re-places every slot. */
  rebalance(price: Int32Array, created: Float64Array, slotCount: number) {
    const values = new Float64Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) values[slot] = price[slot];
    this.priceBounds = quantiles(values);
    for (let slot = 0; slot < slotCount; slot++) values[slot] = -created[slot];
    this.createdBounds = quantiles(values);
    this.ensureSlots(slotCount);
    this.isRebalancing = true;
    for (let slot = 0; slot < slotCount; slot++) this.place(slot, price[slot], created[slot]);
    this.isRebalancing = false;
    this.priceOrder.rebuild(slotCount);
    this.createdOrder.rebuild(slotCount);
    this.placedSinceRebalance = 0;
  }

  bytes() {
    return (
      this.priceBucket.byteLength +
      this.createdBucket.byteLength +
      this.priceOrder.bytes() +
      this.createdOrder.bytes()
    );
  }
}
