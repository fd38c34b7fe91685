/**
 * Canadian addresses: the 13 provinces and territories, and postal codes (A1A 1A1). A postal code
 * must be well formed (Canada Post never uses D, F, I, O, Q or U; W and Z never start one) and its
 * first letter must belong to the province, which catches most typos before a parcel is misrouted.
 */

/** Province and territory codes with their names, in Canada Post order (west to east, then north). */
export const provinces = {
  BC: "British Columbia",
  AB: "Alberta",
  SK: "Saskatchewan",
  MB: "Manitoba",
  ON: "Ontario",
  QC: "Quebec",
  NB: "New Brunswick",
  NS: "Nova Scotia",
  PE: "Prince Edward Island",
  NL: "Newfoundland and Labrador",
  YT: "Yukon",
  NT: "Northwest Territories",
  NU: "Nunavut",
} as const;

export type ProvinceCode = keyof typeof provinces;
export const provinceCodes = Object.keys(provinces) as ProvinceCode[];

/** First letters of the postal codes of each province (forward sortation areas). */
const postalLetters: Record<ProvinceCode, string> = {
  NL: "A", NS: "B", PE: "C", NB: "E", QC: "GHJ", ON: "KLMNP", MB: "R", SK: "S", AB: "T", BC: "V", NT: "X", NU: "X", YT: "Y",
};

const postalPattern = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;

/** "k1a0b1" or "K1A-0B1" → "K1A 0B1"; undefined when it is not a well-formed Canadian postal code. */
export const normalizePostalCode = (value: string): string | undefined => {
  const compact = value.trim().toUpperCase().replace(/[\s-]+/g, " ");
  const match = postalPattern.exec(compact);
  return match ? `${match[1]} ${match[2]}` : undefined;
};

/** True when a normalised postal code can belong to the province. */
export const postalCodeMatchesProvince = (postalCode: string, province: ProvinceCode) => postalLetters[province].includes(postalCode[0]);
