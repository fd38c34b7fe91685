/**
 * Typed arrays reused from one search to the next, by name. Evaluation is synchronous and nothing it
 * returns points into them, so one of each is enough. At a million items a search counts into ~80 KB
 * of arrays (13,500 size lists, 5,000 stores, the sort histograms); fresh ones each search were
 * memory outside the heap that brought a garbage collection every ~40 searches (docs/performance.md,
 * "Issue 28: the tail at a million items").
 */
const counters = new Map<string, { array: Uint32Array; view: Uint32Array }>();
const buffers = new Map<string, Int32Array>();

/**
 * The first `length` entries of the array named `name`, all zero: the same view object while the
 * length stays the same, so that the scans compiled for their arrays (specialized.ts) are reused.
 */
export const zeroedCounts = (name: string, length: number): Uint32Array => {
  let counter = counters.get(name);
  if (!counter || counter.array.length < length) {
    const array = new Uint32Array(Math.ceil(length * 1.25) + 16);
    counter = { array, view: array.subarray(0, length) };
    counters.set(name, counter);
    return counter.view;
  }
  counter.array.fill(0, 0, length);
  if (counter.view.length !== length) counter.view = counter.array.subarray(0, length);
  return counter.view;
};

/** At least `length` entries of the buffer named `name`, holding whatever the last search left. */
export const reusedBuffer = (name: string, length: number): Int32Array => {
  let array = buffers.get(name);
  if (!array || array.length < length) {
    array = new Int32Array(Math.ceil(length * 1.25) + 16);
    buffers.set(name, array);
  }
  return array;
};
