/**
 * How a shopper reads money and time: the two languages of the shopper's pages and emails, which
 * one a person gets, the time zone their times are shown in, and the formatting of both. Partner
 * text (API errors, the developer portal) stays English and does not use this.
 * Pure: Intl only, formatters made once per (locale, zone) because building one costs far more than
 * using it (about a millisecond each).
 */
import { type Cents, formatCents } from "./money";
import { isProvince, provinces } from "./provinces";

export const locales = ["en-CA", "fr-CA"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en-CA";

/** The saved setting is the language alone ("en" | "fr"); Canada is the only market. */
export type Language = "en" | "fr";
export const languages = ["en", "fr"] as const satisfies readonly Language[];
export const localeOfLanguage = (language: Language): Locale =>
  language === "fr" ? "fr-CA" : "en-CA";
export const languageOfLocale = (locale: Locale): Language => (locale === "fr-CA" ? "fr" : "en");

export const isLocale = (value: unknown): value is Locale =>
  typeof value === "string" && (locales as readonly string[]).includes(value);

/**
 * The locale for a person: their saved language, else the first language of Accept-Language that
 * we speak (by q-value, "fr", "fr-FR" and "fr-CA" all reading as French), else English.
 * The header is capped before parsing: it is client input.
 */
export const pickLocale = (
  saved: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Locale => {
  if (saved === "en" || saved === "fr") return localeOfLanguage(saved);
  const ranked = (acceptLanguage ?? "")
    .slice(0, 512)
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const language = tag.split("-")[0];
    if (language === "fr" || language === "en") return localeOfLanguage(language);
  }
  return defaultLocale;
};

export const defaultTimeZone = "America/Toronto";

/** The zone of a saved province (the shipping address's), else Toronto's. */
export const timeZoneOfProvince = (province: string | null | undefined): string =>
  province && isProvince(province) ? provinces[province].timeZone : defaultTimeZone;

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat;
const cache = new Map<string, Formatter>();
const cached = <T extends Formatter>(key: string, make: () => T): T => {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
};

/**
 * Cents as the locale reads dollars: "$1,234.56" in English, "1 234,56 $" in French. Exact for any
 * safe number of cents: Intl formats the decimal string itself, never a float. Zero has no sign.
 */
export const formatMoney = (cents: Cents, locale: Locale): string =>
  cached(
    `money:${locale}`,
    () =>
      new Intl.NumberFormat(locale, {
        style: "currency",
        currency: "CAD",
        currencyDisplay: "narrowSymbol",
      }),
    // Intl.NumberFormat v3 takes a decimal string exactly; the type still says number.
  ).format(formatCents(cents) as unknown as number);

const timeFormatter = (locale: Locale, timeZone: string) =>
  cached(
    `time:${locale}:${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }),
  );

/** A moment as the person reads it, in their zone, without the zone ("Nov 27, 2026, 11:05 a.m."): a page or email names the zone once with zoneLabel. */
export const formatTime = (date: Date, locale: Locale, timeZone: string): string =>
  timeFormatter(locale, timeZone).format(date);

/** A calendar date alone ("Nov 27, 2026"; "27 nov. 2026"). */
export const formatDate = (date: Date, locale: Locale, timeZone: string): string =>
  cached(
    `date:${locale}:${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone }),
  ).format(date);

/** The zone's name as the locale says it: "Eastern Time", "heure de l’Est". */
export const zoneLabel = (locale: Locale, timeZone: string): string =>
  cached(
    `zone:${locale}:${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "longGeneric" }),
  )
    // Today's name: at 1970 some zones had no daylight time and read as "Mountain Standard Time".
    .formatToParts(new Date())
    .find((part) => part.type === "timeZoneName")?.value ?? timeZone;

/**
 * The time left until `until`, rounded down to what a person acts on: "in 23 hours", "in 40
 * minutes", "dans 23 heures"; undefined once it has passed.
 */
export const formatTimeLeft = (now: Date, until: Date, locale: Locale): string | undefined => {
  const minutes = Math.floor((until.getTime() - now.getTime()) / 60_000);
  if (minutes < 0) return undefined;
  const relative = cached(`left:${locale}`, () => new Intl.RelativeTimeFormat(locale));
  if (minutes >= 48 * 60) return relative.format(Math.floor(minutes / (24 * 60)), "day");
  if (minutes >= 120) return relative.format(Math.floor(minutes / 60), "hour");
  return relative.format(Math.max(minutes, 1), "minute");
};
