/**
 * The shopper's text in English and French, one JSON file per area and language, read by the pages
 * (next-intl, app/_i18n/request.ts) and the emails (emails/components/i18n.ts) alike. English is the
 * source: messages.test.ts checks that French has every key with the same placeholders.
 * Partner-facing text (API errors, the developer portal) is not here: it stays English.
 */
import { createTranslator } from "next-intl";
import type { Locale } from "../locale";
import enAccount from "./en/account.json";
import enAuth from "./en/auth.json";
import enCharts from "./en/charts.json";
import enCheckout from "./en/checkout.json";
import enCommon from "./en/common.json";
import enConsent from "./en/consent.json";
import enMailbox from "./en/mailbox.json";
import enOrders from "./en/orders.json";
import enPurchases from "./en/purchases.json";
import enWatches from "./en/watches.json";
import enSearchWatches from "./en/search-watches.json";
import enWatchGroups from "./en/watch-groups.json";
import frAccount from "./fr/account.json";
import frAuth from "./fr/auth.json";
import frCharts from "./fr/charts.json";
import frCheckout from "./fr/checkout.json";
import frCommon from "./fr/common.json";
import frConsent from "./fr/consent.json";
import frMailbox from "./fr/mailbox.json";
import frOrders from "./fr/orders.json";
import frPurchases from "./fr/purchases.json";
import frWatches from "./fr/watches.json";
import frSearchWatches from "./fr/search-watches.json";
import frWatchGroups from "./fr/watch-groups.json";

const en = {
  common: enCommon,
  auth: enAuth,
  account: enAccount,
  purchases: enPurchases,
  watches: enWatches,
  searchWatches: enSearchWatches,
  watchGroups: enWatchGroups,
  checkout: enCheckout,
  consent: enConsent,
  mailbox: enMailbox,
  orders: enOrders,
  charts: enCharts,
};

export type Messages = typeof en;

const byLocale: Record<Locale, Messages> = {
  "en-CA": en,
  "fr-CA": {
    common: frCommon,
    auth: frAuth,
    account: frAccount,
    purchases: frPurchases,
    watches: frWatches,
    searchWatches: frSearchWatches,
    watchGroups: frWatchGroups,
    checkout: frCheckout,
    consent: frConsent,
    mailbox: frMailbox,
    orders: frOrders,
    charts: frCharts,
  } as Messages,
};

export const messagesOf = (locale: Locale): Messages => byLocale[locale];

const newTranslator = (locale: Locale) =>
  createTranslator({ locale, messages: messagesOf(locale) });
const translators = new Map<Locale, ReturnType<typeof newTranslator>>();

/**
 * The language's translator (keys from the root: "charts.priceHistory.alt"), made once: a new one
 * parses every message it formats anew, which a sale's thousands of emails and chart links paid
 * each time (bench: about a twentieth of the sweep thread's CPU).
 */
export const translatorOf = (locale: Locale) => {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = newTranslator(locale)));
  return t;
};

/** The listed conditions and tax names the summary translates; anything else is shown as written. */
export const isConditionKey = (
  value: string | null,
): value is keyof Messages["common"]["summary"]["condition"] =>
  value !== null && Object.hasOwn(en.common.summary.condition, value);

export const isTaxName = (value: string): value is keyof Messages["common"]["summary"]["taxName"] =>
  Object.hasOwn(en.common.summary.taxName, value);

type WhyKey = keyof Messages["watches"]["why"];

/** Why a price watch ended, as a key of watches.json's `why`: its outcome when there is a sentence for it, else "other". */
export const watchOutcomeKey = (outcome: string | null | undefined): WhyKey =>
  outcome && Object.hasOwn(en.watches.why, outcome) ? (outcome as WhyKey) : "other";

type PurchaseReasonKey = keyof Messages["purchases"]["reason"];

/** Why a purchase is where it is, as a key of purchases.json's `reason`: its reason when there is a sentence for it, else "other". */
export const purchaseReasonKey = (reason: string | null | undefined): PurchaseReasonKey =>
  reason && Object.hasOwn(en.purchases.reason, reason) ? (reason as PurchaseReasonKey) : "other";

type RefundSentBackKey = keyof Messages["orders"]["refundFailed"]["reasons"];
/** Every reason a sent-back refund is worded with ("unknown" among them). */
export const refundSentBackReasons = Object.keys(en.orders.refundFailed.reasons) as [
  RefundSentBackKey,
  ...RefundSentBackKey[],
];

/** Why a bank sent a refund back, as a key of orders.json's `refundFailed.reasons`: the processor's code when there is a sentence for it, else "unknown". */
export const refundSentBackReasonKey = (code: string | null | undefined): RefundSentBackKey =>
  code && Object.hasOwn(en.orders.refundFailed.reasons, code)
    ? (code as RefundSentBackKey)
    : "unknown";

type LastCheckKey = keyof Messages["watches"]["lastCheck"]["condition"];

/** Why a price watch's evaluation did not buy, as a key of watches.json's `lastCheck.condition` (1.9.0): its failed condition when there is a sentence for it, else "other". */
export const watchConditionKey = (condition: string | null | undefined): LastCheckKey =>
  condition && Object.hasOwn(en.watches.lastCheck.condition, condition)
    ? (condition as LastCheckKey)
    : "other";
