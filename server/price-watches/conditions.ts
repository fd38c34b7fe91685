/**
 * The conditions that decide whether a price watch buys, written once (ADR 0116). Pure: each takes
 * the facts it needs and says whether it passes, with the values it compared. The evaluator
 * (policy.ts `beforeQuote`, `afterQuote`, `standingRefusal`) checks the ones its read and its
 * quote give it, and records the first that failed; POST /price-watches/preview checks every one and
 * shows them all. A fact left undefined is not known to the caller (another step checks it: the
 * evaluator leaves the store, the market and the card to the purchase path), so its condition is
 * left out rather than guessed.
 */
import { toMoney, type Money } from "../core/money";
import { assistantPurchasesDeliverTo } from "../core/provinces";
import { storeCanSell } from "../core/store-can-sell";
import { maxLiveWatches } from "./states";

/** The conditions, in the fixed order both the preview and the evaluator check them. */
export const watchConditionNames = [
  "item_available",
  "size",
  "max_price",
  "max_total",
  "assistant",
  "purchases_paused",
  "per_order_limit",
  "spending_room",
  "agent_checkout",
  "saved_address",
  "market",
  "saved_card",
  "watch_limit",
  "already_watching",
] as const;
export type WatchConditionName = (typeof watchConditionNames)[number];

/** What the conditions compare; undefined: not known here (its condition is left out). */
export type WatchFacts = {
  priceCents?: number;
  maxPriceCents?: number;
  maxTotalCents: number;
  /** The item is for sale in the watched size (active, its store selling, in stock). */
  itemAvailable?: boolean;
  /** A size was chosen (given, or the person's saved sizes name one the item comes in); false: size_required. */
  sizeChosen?: boolean;
  /** The total of a fresh quote to the saved address (items, shipping, tax); null: no quote could be made. */
  totalCents?: number | null;
  /** The assistant may buy for the person (purchases on for it, a live purchase:write grant). */
  hasGrant?: boolean;
  isPaused?: boolean;
  /** The per-order limit; null: the person set no limits. */
  perOrderLimitCents?: number | null;
  /** What the 30-day limit has left; null: the person set no limits. */
  room30DaysCents?: number | null;
  /** The item's store's agent_checkout (direct lets an assistant buy). */
  agentCheckout?: string;
  /** The saved address's province; null: no saved address. */
  province?: string | null;
  hasSavedCard?: boolean;
  /** The person's live watches on other items, and the live one on this item (null: none). */
  liveWatches?: { count: number; onThisItem: number | null };
};

/**
 * The `item_available` fact: the item is active, its store can sell, and the watched size is in
 * stock (a variant of undefined: no size chosen yet, so stock is not what fails).
 */
export const isForSaleInSize = (
  item: { status: string; store: Parameters<typeof storeCanSell>[0] },
  variant: { quantity: number } | null | undefined,
) => item.status === "active" && storeCanSell(item.store) && (variant?.quantity ?? 1) >= 1;

/** One condition as the wire shows it: its name, whether it passed, what it compared. */
export type WatchCondition = {
  condition: WatchConditionName;
  passed: boolean;
  message: string;
  price?: Money;
  max_price?: Money;
  total?: Money | null;
  max_total?: Money;
  limit?: Money | null;
  room?: Money | null;
  agent_checkout?: string;
  province?: string | null;
  live_watches?: number;
  max_watches?: number;
  price_watch_id?: number | null;
};

const moneyOrNull = (cents: number | null) => (cents === null ? null : toMoney(cents));

type Check = (facts: WatchFacts) => Omit<WatchCondition, "condition"> | undefined;

/** Each condition's rule; undefined when its facts are not known. */
const checks: Record<WatchConditionName, Check> = {
  item_available: ({ itemAvailable }) =>
    itemAvailable === undefined
      ? undefined
      : {
          passed: itemAvailable,
          message: itemAvailable
            ? "The item is for sale in the watched size."
            : "The item is not for sale now (sold, its store not selling, or the size out of stock).",
        },
  size: ({ sizeChosen }) =>
    sizeChosen === undefined
      ? undefined
      : {
          passed: sizeChosen,
          message: sizeChosen
            ? "The size to buy is known."
            : "The item comes in several sizes and the person's saved sizes name none or several of them: pass size (size_required).",
        },
  max_price: ({ priceCents, maxPriceCents }) =>
    priceCents === undefined || maxPriceCents === undefined
      ? undefined
      : {
          passed: priceCents <= maxPriceCents,
          price: toMoney(priceCents),
          max_price: toMoney(maxPriceCents),
          message:
            priceCents <= maxPriceCents
              ? "The price is at or under max_price."
              : "The price is over max_price.",
        },
  max_total: ({ totalCents, maxTotalCents }) => {
    if (totalCents === undefined) return undefined;
    const passed = totalCents !== null && totalCents <= maxTotalCents;
    return {
      passed,
      total: moneyOrNull(totalCents),
      max_total: toMoney(maxTotalCents),
      message:
        totalCents === null
          ? "No total: there is no quote to the saved address."
          : passed
            ? "The total to the saved address, with shipping and tax, is within max_total."
            : "The total to the saved address, with shipping and tax, is over max_total.",
    };
  },
  assistant: ({ hasGrant }) =>
    hasGrant === undefined
      ? undefined
      : {
          passed: hasGrant,
          message: hasGrant
            ? "The assistant may buy for the person."
            : "The assistant may not buy for the person (purchases off for it, or no purchase:write grant).",
        },
  purchases_paused: ({ isPaused }) =>
    isPaused === undefined
      ? undefined
      : {
          passed: !isPaused,
          message: isPaused
            ? "The person paused assistant purchases."
            : "Assistant purchases are not paused.",
        },
  per_order_limit: ({ perOrderLimitCents, maxTotalCents }) => {
    if (perOrderLimitCents === undefined) return undefined;
    const passed = perOrderLimitCents !== null && maxTotalCents <= perOrderLimitCents;
    return {
      passed,
      limit: moneyOrNull(perOrderLimitCents),
      max_total: toMoney(maxTotalCents),
      message:
        perOrderLimitCents === null
          ? "The person set no spending limits (spending_limit_not_set)."
          : passed
            ? "max_total is within the per-order limit."
            : "max_total is over the per-order limit.",
    };
  },
  spending_room: ({ room30DaysCents, maxTotalCents }) => {
    if (room30DaysCents === undefined) return undefined;
    const passed = room30DaysCents !== null && maxTotalCents <= room30DaysCents;
    return {
      passed,
      room: moneyOrNull(room30DaysCents),
      max_total: toMoney(maxTotalCents),
      message:
        room30DaysCents === null
          ? "The person set no spending limits (spending_limit_not_set)."
          : passed
            ? "max_total is within what the 30-day limit has left."
            : "max_total is over what the 30-day limit has left.",
    };
  },
  agent_checkout: ({ agentCheckout }) =>
    agentCheckout === undefined
      ? undefined
      : {
          passed: agentCheckout === "direct",
          agent_checkout: agentCheckout,
          message:
            agentCheckout === "direct"
              ? "The store lets assistants buy."
              : "The store sells only through a checkout link (store_requires_checkout_link).",
        },
  saved_address: ({ province }) =>
    province === undefined
      ? undefined
      : {
          passed: province !== null,
          message:
            province === null
              ? "The person has no saved shipping address."
              : "The person has a saved shipping address.",
        },
  market: ({ province }) =>
    province === undefined || province === null
      ? undefined
      : {
          passed: assistantPurchasesDeliverTo(province),
          province,
          message: assistantPurchasesDeliverTo(province)
            ? "The saved address is in a market assistant purchases serve."
            : "Assistant purchases do not deliver to Quebec.",
        },
  saved_card: ({ hasSavedCard }) =>
    hasSavedCard === undefined
      ? undefined
      : {
          passed: hasSavedCard,
          message: hasSavedCard ? "The person has a saved card." : "The person has no saved card.",
        },
  watch_limit: ({ liveWatches }) =>
    liveWatches === undefined
      ? undefined
      : {
          // A watch on an item already watched replaces nothing: already_watching says so.
          passed: liveWatches.onThisItem !== null || liveWatches.count < maxLiveWatches,
          live_watches: liveWatches.count,
          max_watches: maxLiveWatches,
          message:
            liveWatches.onThisItem !== null || liveWatches.count < maxLiveWatches
              ? `The person has fewer than ${maxLiveWatches} live watches.`
              : `The person already has ${maxLiveWatches} live watches (too_many_watches).`,
        },
  already_watching: ({ liveWatches }) =>
    liveWatches === undefined
      ? undefined
      : {
          passed: liveWatches.onThisItem === null,
          price_watch_id: liveWatches.onThisItem,
          message:
            liveWatches.onThisItem === null
              ? "The person has no live watch on this item."
              : "The person already has a live watch on this item (already_watching).",
        },
};

/** The conditions whose facts are known, in the fixed order. */
export const watchConditions = (facts: WatchFacts): WatchCondition[] =>
  watchConditionNames.flatMap((condition) => {
    const checked = checks[condition](facts);
    return checked ? [{ condition, ...checked }] : [];
  });

/** The first condition that failed, or null when all of them passed. */
export const firstFailed = (conditions: readonly WatchCondition[]): WatchConditionName | null =>
  conditions.find((checked) => !checked.passed)?.condition ?? null;

/**
 * The condition a refusal of the purchase path stands for (the evaluator leaves the store, the
 * market, the card and the 30-day room to POST /purchases' own checks); the code itself otherwise.
 */
export const conditionOfRefusal = (code: string): string =>
  ({
    store_requires_checkout_link: "agent_checkout",
    not_available_in_market: "market",
    no_saved_card: "saved_card",
    card_not_on_this_account: "saved_card",
    address_not_on_file: "saved_address",
    over_spending_limit: "spending_room",
    spending_limit_not_set: "per_order_limit",
    purchases_paused: "purchases_paused",
    agent_purchases_unavailable: "assistant",
    item_unavailable: "item_available",
    nothing_to_buy: "item_available",
    price_changed: "max_price",
  })[code] ?? code;
