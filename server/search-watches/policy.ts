/**
 * The search watch's pure rules: which index keys a watch is filed under and which keys an item
 * looks up (the matcher's index, ADR 0117), whether a watch may email now or waits for its digest,
 * which scope a mode needs, and which of a matched item's sizes a buying watch buys.
 */
import { categoryPathsOf, type ItemMatchFacts, type SearchFilter } from "../catalogue";
import type { Scope } from "../core/scopes";
import { digestWindowMs, type SearchWatchMode } from "./states";

/**
 * A watch's first key: its most selective required filter, as one or several keys (an item
 * matching the watch has one of them). Order: store, brand (any of), a word of q (the longest: the
 * rarest, roughly), a category below the top level, colour (any of), size (any of), a top-level
 * category ("Women": a third of the catalogue, where a colour is a twentieth and a common size a
 * third); a watch with only a price range is filed under "*".
 */
const firstKeysOf = (filter: SearchFilter): string[] => {
  if (filter.storeSlug !== undefined) return [`s:${filter.storeSlug}`];
  if (filter.brands.length) return filter.brands.map((brand) => `b:${brand}`);
  if (filter.lexemes.length)
    return [`w:${[...filter.lexemes].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0]}`];
  const category = filter.categoryPath;
  if (category !== undefined && categoryPathsOf(category).length > 1) return [`c:${category}`];
  if (filter.colors.length) return filter.colors.map((color) => `k:${color}`);
  if (filter.sizeKeys.length) return filter.sizeKeys.map((size) => `z:${size}`);
  if (category !== undefined) return [`c:${category}`];
  return ["*"];
};

/** The filters a second key may come from, in order: colour, size, category (the item has its path and each ancestor's). */
const secondKeysOf = (filter: SearchFilter, firstKind: string): string[] => {
  const kinds: [string, readonly string[]][] = [
    ["k:", filter.colors],
    ["z:", filter.sizeKeys],
    ["c:", filter.categoryPath === undefined ? [] : [filter.categoryPath]],
  ];
  for (const [kind, values] of kinds)
    if (kind !== firstKind && values.length) return values.map((value) => `${kind}${value}`);
  return [];
};

/** A watch filed under pairs has at most this many (two brands and three colours: six). */
const maxPairs = 16;

/**
 * The keys a watch is filed under: its first key paired with a second filter it also requires
 * (`b:Arc|k:navy`), else its first key alone. Looking an item up by all of its own keys and pairs
 * finds the watch. One key alone proposed every watch of a common brand or colour for every item
 * of it (bench: 2,292 candidates an item for 478 matches, ADR 0117).
 */
export const indexKeysOf = (filter: SearchFilter): string[] => {
  const first = firstKeysOf(filter);
  const second = secondKeysOf(filter, first[0].slice(0, 2));
  if (second.length === 0 || first.length * second.length > maxPairs) return first;
  return first.flatMap((key) => second.map((pair) => `${key}|${pair}`));
};

/** Every key an item is looked up by: one per value it has of each filter, "*", and each key paired with the item's colours, sizes and category paths. */
export const itemKeysOf = (item: ItemMatchFacts): string[] => {
  const seconds = [
    ...item.colors.map((color) => `k:${color}`),
    ...item.sizeKeys.map((size) => `z:${size}`),
    ...categoryPathsOf(item.categoryPath).map((path) => `c:${path}`),
  ];
  const keys = [
    `s:${item.storeSlug}`,
    ...(item.brand === null ? [] : [`b:${item.brand}`]),
    ...item.lexemes.map((lexeme) => `w:${lexeme}`),
    ...seconds,
  ];
  const pairs = keys.flatMap((key) =>
    seconds.filter((pair) => !pair.startsWith(key.slice(0, 2))).map((pair) => `${key}|${pair}`),
  );
  return [...keys, ...pairs, "*"];
};

/** The start of the window a new email must wait out: a watch last emailed at or before it may email now. */
export const emailWindowStart = (now: Date) => new Date(now.getTime() - digestWindowMs);

/** The scope a mode needs on the token: notify emails (alerts:write), buy buys (purchase:write). */
export const scopeOfMode = (mode: SearchWatchMode): Scope =>
  mode === "notify" ? "alerts:write" : "purchase:write";

/**
 * The size a buying watch buys of a matched item: of its sizes with a unit left, one the watch's
 * size filter names; without a size filter, the item's only size, else one of the person's saved
 * sizes; null when none decides (it does not buy that item).
 */
export const sizeToBuy = (
  variants: readonly { size: string | null; sizeKey: string | null; quantity: number }[],
  wanted: { filterSizeKeys: readonly string[]; savedSizeKeys: readonly string[] },
): { size: string | undefined } | null => {
  const left = variants.filter((variant) => variant.quantity > 0);
  if (left.length === 0) return null;
  const keys = [...new Set(left.map((variant) => variant.sizeKey))];
  const pick = (allowed: readonly string[]) =>
    left.find((variant) => variant.sizeKey !== null && allowed.includes(variant.sizeKey));
  if (wanted.filterSizeKeys.length) {
    const chosen = pick(wanted.filterSizeKeys);
    return chosen ? { size: chosen.size ?? undefined } : null;
  }
  if (keys.length === 1) return { size: left[0].size ?? undefined };
  const saved = pick(wanted.savedSizeKeys);
  return saved ? { size: saved.size ?? undefined } : null;
};
