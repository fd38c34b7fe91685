/**
 * The one size normaliser: maps the many spellings stores use to the key the size filter and the
 * size facet group by (MD -> M, Small -> S, "US 8" -> 8, "28 x 32" -> 28x32). Items keep their sizes
 * as listed; only filtering and facets use the key.
 */
const letterSizes: Record<string, string> = {
  XXS: "XXS",
  "2XS": "XXS",
  XXSMALL: "XXS",
  XS: "XS",
  XSMALL: "XS",
  EXTRASMALL: "XS",
  XSM: "XS",
  S: "S",
  SM: "S",
  SML: "S",
  SMALL: "S",
  M: "M",
  MD: "M",
  MED: "M",
  MEDIUM: "M",
  L: "L",
  LG: "L",
  LRG: "L",
  LARGE: "L",
  XL: "XL",
  XLARGE: "XL",
  EXTRALARGE: "XL",
  XLG: "XL",
  XXL: "XXL",
  "2XL": "XXL",
  XXLARGE: "XXL",
  XXXL: "XXXL",
  "3XL": "XXXL",
  OS: "One Size",
  ONESIZE: "One Size",
  OSFA: "One Size",
  ONESIZEFITSALL: "One Size",
};

/** Returns the filter key of a size as a store listed it; unknown spellings are kept, trimmed. */
export const normalizeSize = (label: string): string => {
  const trimmed = label.trim().replace(/\s+/g, " ");
  const compact = trimmed.toUpperCase().replace(/[\s\-_./]/g, "");
  const letter = letterSizes[compact];
  if (letter) return letter;
  // Numeric sizes, optionally with a region prefix: "8", "US 8", "EU 38", "9.5".
  const numeric = /^(?:US|CA|UK|EU|IT|FR|W|SIZE)?\s*(\d{1,3}(?:\.5)?)$/i.exec(
    trimmed.replace(/\s+/g, ""),
  );
  if (numeric) return numeric[1];
  // Waist by length: "28x32", "28 x 32", "W28 L32", "W28/L32".
  const waistLength = /^W?(\d{2})\s*(?:x|\/|\s)\s*L?(\d{2})$/i.exec(trimmed);
  if (waistLength) return `${waistLength[1]}x${waistLength[2]}`;
  return trimmed;
};

/** The distinct filter keys of a list of sizes, in first-seen order. */
export const sizeKeys = (labels: readonly string[]): string[] => [
  ...new Set(labels.map(normalizeSize)),
];

type Sized = { size: string | null };

/** A variant's filter key; a variant listed without a size is the item's one size. */
const variantKey = (variant: Sized) =>
  variant.size === null ? "One Size" : normalizeSize(variant.size);

/** The item's sizes as its variants list them, for messages ("XS, XXL, Med, MD"). */
const listedSizes = (variants: readonly Sized[]) =>
  variants.map((variant) => variant.size ?? "one size").join(", ");

/**
 * Which variants of an item a person's request means: the one rule wherever an item is chosen for
 * a person (a price watch when set and when it buys, a quote's line). Variants whose sizes normalise
 * to the same key are one size (Med and MD are both M): any of them will do, the exact spelling asked
 * for first. Without a size: an item in one (normalised) size needs none; otherwise the one size of
 * the person's saved sizes that the item comes in; none or several of them: `required`.
 */
export type SizeChoice<V> = { variants: V[] } | { required: string } | { notASize: string };

export const chooseSize = <V extends Sized>(
  variants: readonly V[],
  options: { size?: string; savedSizes?: readonly string[] },
): SizeChoice<V> => {
  const { size } = options;
  const ofKey = (key: string) => {
    const same = variants.filter((variant) => variantKey(variant) === key);
    return [
      ...same.filter((variant) => variant.size === size),
      ...same.filter((variant) => variant.size !== size),
    ];
  };
  if (size !== undefined) {
    const exact = variants.find((variant) => variant.size === size);
    const chosen = ofKey(exact ? variantKey(exact) : normalizeSize(size));
    return chosen.length ? { variants: chosen } : { notASize: listedSizes(variants) };
  }
  const keys = [...new Set(variants.map(variantKey))];
  if (keys.length === 1) return { variants: [...variants] };
  const saved = [...new Set((options.savedSizes ?? []).map(normalizeSize))].filter((key) =>
    keys.includes(key),
  );
  return saved.length === 1 ? { variants: ofKey(saved[0]) } : { required: listedSizes(variants) };
};

/** Of one size's variants, the one to buy `quantity` of: the first with enough left, else the first (it answers out of stock). */
export const availableVariant = <V extends { quantity: number }>(
  variants: readonly V[],
  quantity: number,
): V => variants.find((variant) => variant.quantity >= quantity) ?? variants[0];
