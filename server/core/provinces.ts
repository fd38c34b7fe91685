/**
 * Canada's provinces and territories, the destinations the marketplace ships to: the one table of
 * what the address, tax and shipping rules need about each. The address rule (address.ts) reads
 * the names and postal letters, tax and shipping the time zone and whether the destination is remote
 * (territories pay a shipping surcharge).
 */
type ProvinceFacts = { name: string; timeZone: string; isRemote: boolean; postalLetters: string };

/**
 * In Canada Post order (west to east, then north), the order forms list them in. Postal letters are
 * the first letters of each one's forward sortation areas (X is shared by NT and NU).
 */
export const provinces = {
  BC: {
    name: "British Columbia",
    timeZone: "America/Vancouver",
    isRemote: false,
    postalLetters: "V",
  },
  AB: { name: "Alberta", timeZone: "America/Edmonton", isRemote: false, postalLetters: "T" },
  SK: { name: "Saskatchewan", timeZone: "America/Regina", isRemote: false, postalLetters: "S" },
  MB: { name: "Manitoba", timeZone: "America/Winnipeg", isRemote: false, postalLetters: "R" },
  ON: { name: "Ontario", timeZone: "America/Toronto", isRemote: false, postalLetters: "KLMNP" },
  QC: { name: "Quebec", timeZone: "America/Toronto", isRemote: false, postalLetters: "GHJ" },
  NB: { name: "New Brunswick", timeZone: "America/Moncton", isRemote: false, postalLetters: "E" },
  NS: { name: "Nova Scotia", timeZone: "America/Halifax", isRemote: false, postalLetters: "B" },
  PE: {
    name: "Prince Edward Island",
    timeZone: "America/Halifax",
    isRemote: false,
    postalLetters: "C",
  },
  NL: {
    name: "Newfoundland and Labrador",
    timeZone: "America/St_Johns",
    isRemote: false,
    postalLetters: "A",
  },
  YT: { name: "Yukon", timeZone: "America/Whitehorse", isRemote: true, postalLetters: "Y" },
  NT: {
    name: "Northwest Territories",
    timeZone: "America/Yellowknife",
    isRemote: true,
    postalLetters: "X",
  },
  NU: { name: "Nunavut", timeZone: "America/Iqaluit", isRemote: true, postalLetters: "X" },
} as const satisfies Record<string, ProvinceFacts>;

export type Province = keyof typeof provinces;
export const provinceCodes = Object.keys(provinces) as [Province, ...Province[]];
export const isProvince = (code: string): code is Province => Object.hasOwn(provinces, code);

// Building an Intl.DateTimeFormat costs far more than using one; quotes need several per request.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) at `instant` in the province's time zone. */
export const localDate = (instant: Date, province: Province): string => {
  const { timeZone } = provinces[province];
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
};

/**
 * Whether assistant purchases deliver to `province` (DESIGN.md: delivery to Quebec is refused for
 * assistant purchases only; a checkout link serves it). POST /purchases, the watches that buy for a
 * person when they are set, and the watch preview read this one rule.
 */
export const assistantPurchasesDeliverTo = (province: string) => province !== "QC";
