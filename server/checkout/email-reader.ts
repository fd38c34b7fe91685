/**
 * How the buyer reads a checkout's emails (order confirmation, shipped, refund, payment failed):
 * in the language they paid in (checkouts.buyer_language), else their person's saved language when
 * the checkout belongs to a person, else English; times in the zone of the province it ships to.
 * A purchase's order (no checkout) is read as its person reads everything (accounts' preferences).
 */
import { readReadingPreferences } from "../accounts";
import {
  defaultLocale,
  defaultTimeZone,
  type Locale,
  localeOfLanguage,
  timeZoneOfProvince,
} from "../core/locale";
import type { Db, Tx } from "../platform/db";
import type { TShippingAddress } from "./checkout.schema";
import { readCheckoutReader } from "./store/checkouts";

export type EmailReader = { locale: Locale; timeZone: string };

/** The reader of a checkout whose row is at hand (`province`: its ship-to's). */
export const checkoutReader = async (
  sql: Db | Tx,
  checkout: { buyerLanguage: string | null; personId: string | null; province: string | null },
): Promise<EmailReader> => {
  const timeZone = timeZoneOfProvince(checkout.province);
  if (checkout.buyerLanguage === "en" || checkout.buyerLanguage === "fr")
    return { locale: localeOfLanguage(checkout.buyerLanguage), timeZone };
  if (checkout.personId)
    return { locale: (await readReadingPreferences(sql, checkout.personId)).locale, timeZone };
  return { locale: defaultLocale, timeZone };
};

/** The ship-to province of a quote's stored address (null when it has none). */
export const provinceOf = (address: unknown): string | null =>
  (address as TShippingAddress | null)?.province ?? null;

/** The reader of a store order's emails: its checkout's, else (a purchase's order) its person's. */
export const orderEmailReader = async (
  sql: Db | Tx,
  order: { checkoutId: string | null; personId: string | null },
): Promise<EmailReader> => {
  const checkout = order.checkoutId ? await readCheckoutReader(sql, order.checkoutId) : null;
  if (checkout)
    return checkoutReader(sql, {
      buyerLanguage: checkout.buyerLanguage,
      personId: order.personId ?? checkout.personId,
      province: provinceOf(checkout.quote.address),
    });
  if (order.personId) return readReadingPreferences(sql, order.personId);
  return { locale: defaultLocale, timeZone: defaultTimeZone };
};
