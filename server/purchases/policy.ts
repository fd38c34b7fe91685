/**
 * The purchase's pure rules (no I/O): what POST /purchases checks, in the reference's order, on
 * what its transaction read; which refusals the Idempotency-Key keeps; where the processor's
 * answer moves the purchase; and the spending room. The use case (buy-quote.ts) reads and writes
 * through the store and decides here.
 */
import { assistantPurchasesDeliverTo } from "../core/provinces";
import { AppError, errorBody } from "../core/errors";
import { toMoney } from "../core/money";
import { purchaseRefusal, type SpendingSettings } from "../core/spending-limits";
import type { AuthorizeResult, ProcessorRefusal } from "../payments";
import type { QuoteSnapshot } from "../checkout";
import type { TPurchaseOutcome } from "./purchase.schema";
import { isAddressOnFile, type SavedAddress } from "./address-on-file";

/** Purchases one person may start per rolling hour, all assistants together (429 too_many_purchases). */
export const purchasesPerHour = 10;
const hourMs = 3_600_000;

export type SpendingRoom = {
  perOrderCents: number;
  per30DaysCents: number;
  room30DaysCents: number;
  roomCents: number;
};
type Limits = { perOrderCents: number; per30DaysCents: number };

/**
 * How much a person's assistants may still spend on one order: the lesser of the per-order limit
 * and what the 30-day limit has left after `spentCents` (the purchases of the last 30 days that
 * hold or took money).
 */
export const roomAfter = (spentCents: number, limits: Limits): SpendingRoom => {
  const room30DaysCents = Math.max(0, limits.per30DaysCents - spentCents);
  return { ...limits, room30DaysCents, roomCents: Math.min(limits.perOrderCents, room30DaysCents) };
};

/** The over_spending_limit details when `totalCents` does not fit the room; null when it does. */
export const overSpendingLimit = (totalCents: number, room: SpendingRoom) => {
  if (totalCents <= room.roomCents) return null;
  const overPerOrder = totalCents > room.perOrderCents;
  return {
    limitCents: overPerOrder ? room.perOrderCents : room.per30DaysCents,
    roomCents: room.roomCents,
    message: overPerOrder
      ? "The total is over the person's limit per order."
      : "The total is over what the person's 30-day limit has left.",
  };
};

/**
 * The person's spending settings when they allow an assistant purchase (limits set, not paused);
 * purchases_paused or spending_limit_not_set otherwise (409 where every refusal is, as POST
 * /price-watches). Undefined settings: no such person.
 */
export const settingsAllowingPurchase = (
  settings: SpendingSettings | undefined,
  options: { status?: 409 } = {},
) => {
  const refusal = settings ? purchaseRefusal(settings) : "spending_limit_not_set";
  if (refusal) {
    throw new AppError(refusal, {
      message:
        refusal === "purchases_paused"
          ? "The person paused assistant purchases."
          : "The person has not set spending limits.",
      status: options.status,
    });
  }
  return settings!;
};

/**
 * The rules of the reference about the quote, the person and the card, in its order after the
 * first two (quote_expired, checked first; quote_already_purchased, the purchase's insert); the
 * person's settings when they allow the purchase.
 */
export const checkQuote = (options: {
  snapshot: QuoteSnapshot;
  quoteAddress: unknown;
  savedAddress: SavedAddress | null;
  settings: SpendingSettings | undefined;
  hasCard: boolean;
}) => {
  const { snapshot } = options;
  const linkStores = snapshot.stores.filter((store) => store.agentCheckout !== "direct");
  if (linkStores.length) {
    throw new AppError("store_requires_checkout_link", {
      message:
        "A store of this quote sells only through a checkout link; use POST /checkout/sessions.",
      details: { stores: linkStores.map((store) => store.slug) },
    });
  }
  if (!assistantPurchasesDeliverTo(snapshot.destination))
    throw new AppError("not_available_in_market", {
      message: "Assistant purchases do not deliver to Quebec; use a checkout link.",
    });
  if (snapshot.stores.length === 0)
    throw new AppError("item_unavailable", {
      message: "None of the quote's items can be bought; create a new quote.",
    });
  if (!isAddressOnFile(options.quoteAddress, options.savedAddress)) {
    throw new AppError("address_not_on_file", {
      message:
        "The quote's address is not the one saved in the person's account; quote for the saved address (address:read).",
    });
  }
  const settings = settingsAllowingPurchase(options.settings);
  if (!options.hasCard)
    throw new AppError("no_saved_card", { message: "The person has no saved card." });
  return settings;
};

/** What the rules read under the person's lock (store/locked-state.ts), as they use it. */
type LockedFacts = {
  spentCents: number;
  lastHourCount: number;
  lastHourFirst: Date | null;
  prices: { id: number; priceCents: number }[];
};

/**
 * Rules that read other purchases, prices and stock, in the reference's order, under the person's
 * row lock; `reserved` is what the transaction reserved of the quote's lines before taking it.
 */
export const lockedChecks = (options: {
  state: LockedFacts;
  snapshot: QuoteSnapshot;
  reserved: Map<number, number>;
  grandTotalCents: number;
  now: Date;
  settings: SpendingSettings;
}) => {
  const { state, snapshot, reserved, grandTotalCents, now, settings } = options;
  const lines = snapshot.stores.flatMap((store) => store.lines);
  // Prices first (a repriced item needs a new quote), then stock.
  const priceOf = new Map(state.prices.map((item) => [item.id, item.priceCents]));
  const itemsOf = (wanted: typeof lines) =>
    wanted.map((line) => ({ item_id: line.itemId, size: line.size }));
  const unpriced = lines.filter((line) => !priceOf.has(line.itemId));
  if (unpriced.length)
    throw new AppError("price_unavailable", {
      message: "An item of the quote has no price now; create a new quote.",
      details: { items: itemsOf(unpriced) },
    });
  const repriced = lines.filter((line) => priceOf.get(line.itemId) !== line.unitPriceCents);
  if (repriced.length)
    throw new AppError("price_changed", {
      message: "A price changed since the quote; create a new quote.",
      details: { items: itemsOf(repriced) },
    });
  const missing = lines.filter((line) => !reserved.has(line.variantId));
  if (missing.length)
    throw new AppError("item_unavailable", {
      message: "Some items were bought or taken since the quote; create a new quote.",
      details: { items: itemsOf(missing) },
    });
  const room = roomAfter(state.spentCents, {
    perOrderCents: settings.limitPerOrderCents!,
    per30DaysCents: settings.limitPer30DaysCents!,
  });
  const over = overSpendingLimit(grandTotalCents, room);
  if (over)
    throw new AppError("over_spending_limit", {
      message: over.message,
      details: { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) },
    });
  if (state.lastHourCount >= purchasesPerHour) {
    const retryAfter = Math.max(
      1,
      Math.ceil((state.lastHourFirst!.getTime() + hourMs - now.getTime()) / 1000),
    );
    throw new AppError("too_many_purchases", {
      message: `At most ${purchasesPerHour} purchases per person per hour; retry after the seconds in Retry-After.`,
      retryAfter,
    });
  }
};

/** Outcomes stored under the key: every purchase refusal but the rate limit (a retry later must run). */
export const isStoredRefusal = (error: unknown): error is AppError =>
  error instanceof AppError &&
  error.code !== "too_many_purchases" &&
  [403, 409].includes(error.status) &&
  error.code !== "idempotency_key_in_use";

/** Why the checkout of a declined purchase could not be made, in POST /purchases' codes (the checkout's nothing_to_buy and quote_expired for a price are not among them). */
export const checkoutRefusal = (error: AppError, declineCode: string | null) => {
  const code =
    error.code === "quote_expired"
      ? "price_changed"
      : error.code === "nothing_to_buy"
        ? "item_unavailable"
        : error.code;
  const message = `The bank did not hold the saved card (${declineCode ?? "card_declined"}), and no checkout could be made for the person to pay: ${error.message} Nothing was charged.`;
  return new AppError(code, { message, details: error.options.details });
};

/** The key's record keeps the outcome (HTTP status and body) under status 200: a 402 body is a Purchase, not an error to rebuild. */
export const storedAs = (outcome: TPurchaseOutcome) => ({ status: 200, body: outcome });

export const refusalOutcome = (error: AppError): TPurchaseOutcome => ({
  status: error.status,
  body: errorBody(error) as TPurchaseOutcome["body"],
});

/** The processor's answer to a purchase's authorize, or its refusal of the create itself (no payment made, nothing held). */
export type PurchaseAnswer =
  AuthorizeResult | { kind: "refused_by_processor"; reason: ProcessorRefusal };

/**
 * Where an answer other than a hold moves the purchase: requires_person for a decline, an
 * authentication step, or a saved card the processor no longer has (answered 409
 * card_not_on_this_account); refused (processor_refused) when the processor refused our request
 * (key, permissions): no checkout link would fare better. Null while the answer is unknown.
 */
export const moveOfAnswer = (
  result: Exclude<PurchaseAnswer, { kind: "authorized" }>,
): { event: "needs_person" | "refuse"; reason: string } | null => {
  switch (result.kind) {
    case "unknown":
      return null;
    case "requires_action":
      return { event: "needs_person", reason: "authentication_required" };
    case "declined":
      return { event: "needs_person", reason: result.declineCode ?? "card_declined" };
    case "refused_by_processor":
      return {
        event: result.reason === "payment_method_not_found" ? "needs_person" : "refuse",
        reason: result.reason,
      };
  }
};
