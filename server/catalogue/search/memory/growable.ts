/** Growing typed arrays: the index appends slots and postings, so arrays grow by a factor. */
type TypedArray = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array;

/** Returns `array` if it holds at least `length` elements, else a bigger copy (1.25x, to bound slack). */
export const ensureLength = <T extends TypedArray>(array: T, length: number): T => {
  if (array.length >= length) return array;
  const Constructor = array.constructor as new (length: number) => T;
  const next = new Constructor(Math.max(length, Math.ceil(array.length * 1.25) + 64));
  next.set(array as never);
  return next;
};
