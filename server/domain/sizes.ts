/**
 * The one size normaliser: maps the many spellings stores use to the key the size filter and the
 * size facet group by (MD -> M, Small -> S, "US 8" -> 8, "28 x 32" -> 28x32). Items keep their sizes
 * as listed; only filtering and facets use the key.
 */
const letterSizes: Record<string, string> = {
  XXS: "XXS", "2XS": "XXS", XXSMALL: "XXS",
  XS: "XS", XSMALL: "XS", EXTRASMALL: "XS", XSM: "XS",
  S: "S", SM: "S", SML: "S", SMALL: "S",
  M: "M", MD: "M", MED: "M", MEDIUM: "M",
  L: "L", LG: "L", LRG: "L", LARGE: "L",
  XL: "XL", XLARGE: "XL", EXTRALARGE: "XL", XLG: "XL",
  XXL: "XXL", "2XL": "XXL", XXLARGE: "XXL",
  XXXL: "XXXL", "3XL": "XXXL",
  OS: "One Size", ONESIZE: "One Size", OSFA: "One Size", ONESIZEFITSALL: "One Size",
};

/** Returns the filter key of a size as a store listed it; unknown spellings are kept, trimmed. */
export const normalizeSize = (label: string): string => {
  const trimmed = label.trim().replace(/\s+/g, " ");
  const compact = trimmed.toUpperCase().replace(/[\s\-_./]/g, "");
  const letter = letterSizes[compact];
  if (letter) return letter;
  // Numeric sizes, optionally with a region prefix: "8", "US 8", "EU 38", "9.5".
  const numeric = /^(?:US|CA|UK|EU|IT|FR|W|SIZE)?\s*(\d{1,3}(?:\.5)?)$/i.exec(trimmed.replace(/\s+/g, ""));
  if (numeric) return numeric[1];
  // Waist by length: "28x32", "28 x 32", "W28 L32", "W28/L32".
  const waistLength = /^W?(\d{2})\s*(?:x|\/|\s)\s*L?(\d{2})$/i.exec(trimmed);
  if (waistLength) return `${waistLength[1]}x${waistLength[2]}`;
  return trimmed;
};

/** The distinct filter keys of a list of sizes, in first-seen order. */
export const sizeKeys = (labels: readonly string[]): string[] => [...new Set(labels.map(normalizeSize))];
