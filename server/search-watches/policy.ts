/**
 * The search watch's pure rules: which index keys a watch is filed under and which keys an item
 * looks up (the matcher's index, ADR 0117), whether a watch may email now or waits for its digest,
 * which scope a mode needs, and which of a matched item's sizes a buying watch buys.
 */
import { categoryPathsOf, type ItemMatchFacts, type SearchFilter } from "../catalogue";
import type { Scope } from "../core/scopes";
import { digestWindowMs, type SearchWatchMode } from "./states";

/**
 * The keys a watch is filed under: its most selective required filter, as one or several keys
 * (an item matching the watch has one of them, so looking an item up by all of its own keys finds
 * the watch). Order: store, brand (any of), a word of q (the longest: the rarest, roughly), a
 * category below the top level, colour (any of), size (any of), a top-level category ("Women":
 * a third of the catalogue, where a colour is a twentieth and a common size a third); a watch with
 * only a price range is filed under "*". Every item of "Women" looked through every watch filed
 * under it when the category came before the colour (bench: most of the matcher's time, ADR 0117).
 */
export const indexKeysOf = (filter: SearchFilter): string[] => {
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

/** Every key an item is looked up by: one per value it has of each filter, and "*". */
export const itemKeysOf = (item: ItemMatchFacts): string[] => [
  `s:${item.storeSlug}`,
  ...(item.brand === null ? [] : [`b:${item.brand}`]),
  ...item.lexemes.map((lexeme) => `w:${lexeme}`),
  ...categoryPathsOf(item.categoryPath).map((path) => `c:${path}`),
  ...item.sizeKeys.map((size) => `z:${size}`),
  ...item.colors.map((color) => `k:${color}`),
  "*",
];

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
