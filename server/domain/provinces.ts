/**
 * Canada's provinces and territories: the destinations the marketplace ships to. Holds what the
 * tax, shipping and address rules need: the time zone a local date is read in, whether the
 * destination is remote (territories pay a shipping surcharge) and the postal code's first letter.
 */
export const provinceCodes = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const;
export type Province = (typeof provinceCodes)[number];

type ProvinceFacts = { name: string; timeZone: string; isRemote: boolean; postalLetters: string };

/** Postal letters from Canada Post's forward sortation areas (X is shared by NT and NU). */
export const provinces: Record<Province, ProvinceFacts> = {
  AB: { name: "Alberta", timeZone: "America/Edmonton", isRemote: false, postalLetters: "T" },
  BC: { name: "British Columbia", timeZone: "America/Vancouver", isRemote: false, postalLetters: "V" },
  MB: { name: "Manitoba", timeZone: "America/Winnipeg", isRemote: false, postalLetters: "R" },
  NB: { name: "New Brunswick", timeZone: "America/Moncton", isRemote: false, postalLetters: "E" },
  NL: { name: "Newfoundland and Labrador", timeZone: "America/St_Johns", isRemote: false, postalLetters: "A" },
  NS: { name: "Nova Scotia", timeZone: "America/Halifax", isRemote: false, postalLetters: "B" },
  NT: { name: "Northwest Territories", timeZone: "America/Yellowknife", isRemote: true, postalLetters: "X" },
  NU: { name: "Nunavut", timeZone: "America/Iqaluit", isRemote: true, postalLetters: "X" },
  ON: { name: "Ontario", timeZone: "America/Toronto", isRemote: false, postalLetters: "KLMNP" },
  PE: { name: "Prince Edward Island", timeZone: "America/Halifax", isRemote: false, postalLetters: "C" },
  QC: { name: "Quebec", timeZone: "America/Toronto", isRemote: false, postalLetters: "GHJ" },
  SK: { name: "Saskatchewan", timeZone: "America/Regina", isRemote: false, postalLetters: "S" },
  YT: { name: "Yukon", timeZone: "America/Whitehorse", isRemote: true, postalLetters: "Y" },
};

export const isProvince = (value: string): value is Province => (provinceCodes as readonly string[]).includes(value);

// Canada Post never uses D, F, I, O, Q or U; W and Z never start a code.
const postalPattern = /^([ABCEGHJ-NPRSTVXY])(\d)([ABCEGHJ-NPRSTV-Z]) ?(\d)([ABCEGHJ-NPRSTV-Z])(\d)$/;

/** "k1a0b1" -> "K1A 0B1"; undefined when it is not a Canadian postal code. */
export const normalizePostalCode = (input: string): string | undefined => {
  const match = postalPattern.exec(input.trim().toUpperCase());
  return match ? `${match[1]}${match[2]}${match[3]} ${match[4]}${match[5]}${match[6]}` : undefined;
};

/** True when the postal code's first letter belongs to the province (a typo would misroute tax). */
export const postalCodeMatchesProvince = (postalCode: string, province: Province) =>
  provinces[province].postalLetters.includes(postalCode.trim().toUpperCase()[0] ?? "");

// Building an Intl.DateTimeFormat costs far more than using one; quotes need several per request.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) at `instant` in the province's time zone. */
export const localDate = (instant: Date, province: Province): string => {
  const { timeZone } = provinces[province];
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
};
