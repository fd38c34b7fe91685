/**
 * Strings in code-point order, which is PostgreSQL's `COLLATE "C"` on UTF-8 (byte order). JavaScript's
 * `<` compares UTF-16 units instead, which puts characters above U+FFFF before U+E000-U+FFFF.
 */
const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/** Negative, zero or positive as `a` sorts before, with or after `b` in code-point order. */
export const compareCodePoints = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = isSurrogate(x);
    if (xs !== isSurrogate(y)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
};
