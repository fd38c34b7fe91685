/**
 * The price watch's decisions, pure (no I/O): what an evaluation does with a watch before and
 * after its fresh quote, why a watch lost its standing, how a purchase's state is recorded on its
 * watch, with which outcome an expiry ends it, and whether the person's live watches let a new one be set. The use cases (evaluate-watch.ts,
 * record-watch-purchase.ts, watch-standing.ts, expire-watch.ts) read and write; these decide.
 */
import type { SpendingSettings } from "../core/spending-limits";
import { type EndOutcome, maxLiveWatches } from "./states";
import { firstFailed, watchConditions, type WatchConditionName } from "./conditions";

/**
 * An evaluation that stops here, with the move it makes (or none) and the condition that stopped it
 * (conditions.ts; "expired" when its time ran out).
 */
export type Stop = (
  | { next: "expire" }
  | { next: "end_sold" }
  | { next: "end"; outcome: EndOutcome }
  | { next: "set_over_total"; overTotal: boolean }
  | { next: "wait" }
) & { failed: string };

/** The condition each loss of standing stands for. */
const standingCondition: Record<string, WatchConditionName> = {
  assistant_disconnected: "assistant",
  purchases_paused: "purchases_paused",
  limits_lowered: "per_order_limit",
};

/**
 * Before any quote, from what was read with the watch: an expired watch expires; an item no longer
 * active ends it item_sold; a price over max_price leaves it active (clearing "over its total",
 * since the price rose again); a watch whose standing is gone ends with that outcome; otherwise quote.
 * The item and the price are the conditions' `item_available` and `max_price`.
 */
export const beforeQuote = (
  watch: {
    expiresAt: Date;
    itemStatus: string;
    priceCents: number;
    maxPriceCents: number;
    overTotal: boolean;
    /** Why its standing is gone (standingRefusal), or null. */
    lostStanding: EndOutcome | null;
  },
  now: Date,
): Stop | { next: "quote" } => {
  if (watch.expiresAt <= now) return { next: "expire", failed: "expired" };
  const failed = firstFailed(
    watchConditions({
      itemAvailable: watch.itemStatus === "active",
      priceCents: watch.priceCents,
      maxPriceCents: watch.maxPriceCents,
      maxTotalCents: 0,
    }),
  );
  if (failed === "item_available") return { next: "end_sold", failed };
  if (failed === "max_price")
    return watch.overTotal
      ? { next: "set_over_total", overTotal: false, failed }
      : { next: "wait", failed };
  if (watch.lostStanding)
    return {
      next: "end",
      outcome: watch.lostStanding,
      failed: standingCondition[watch.lostStanding] ?? watch.lostStanding,
    };
  return { next: "quote" };
};

/** A fresh quote for the watch: its id, unit price and total; or why it cannot buy. */
export type FreshQuote =
  | { ended: "address_not_on_file" | "item_sold" }
  | { quoteId: string; unitPriceCents: number; grandTotalCents: number };

/**
 * After the quote: no address or nothing left ends the watch; a unit price over max_price waits (the
 * price rose again meanwhile; its own event re-evaluates); a total over max_total is not charged and
 * marks the watch "over its total" (expiring then ends it over_your_total); otherwise claim and buy.
 * The price and the total are the conditions' `max_price` and `max_total`.
 */
export const afterQuote = (
  watch: { maxPriceCents: number; maxTotalCents: number },
  quote: FreshQuote,
): Stop | { next: "claim"; quoteId: string } => {
  if ("ended" in quote)
    return quote.ended === "item_sold"
      ? { next: "end_sold", failed: "item_available" }
      : { next: "end", outcome: quote.ended, failed: "saved_address" };
  const failed = firstFailed(
    watchConditions({
      priceCents: quote.unitPriceCents,
      maxPriceCents: watch.maxPriceCents,
      totalCents: quote.grandTotalCents,
      maxTotalCents: watch.maxTotalCents,
    }),
  );
  if (failed === "max_price") return { next: "wait", failed };
  if (failed === "max_total") return { next: "set_over_total", overTotal: true, failed };
  return { next: "claim", quoteId: quote.quoteId };
};

/** Whether the person still lets the watch's assistant buy, and their spending settings (none: not set). */
export type Standing = { hasGrant: boolean; settings: SpendingSettings | undefined };

/** The standing as the conditions' facts: the grant, the pause, the per-order limit (null: limits not set). */
export const standingFacts = (standing: Standing) => {
  const { settings } = standing;
  const isSet =
    settings !== undefined &&
    settings.limitPerOrderCents !== null &&
    settings.limitPer30DaysCents !== null;
  return {
    hasGrant: standing.hasGrant,
    isPaused: settings?.isPaused ?? false,
    perOrderLimitCents: isSet ? settings.limitPerOrderCents : null,
  };
};

/**
 * Why a watch can no longer buy, or null when it still may: the assistant lost its purchase:write
 * grant, purchases are paused, or the limits are gone or below the watch's max_total (the
 * conditions' `assistant`, `purchases_paused` and `per_order_limit`).
 */
export const standingRefusal = (standing: Standing, maxTotalCents: number): EndOutcome | null => {
  const failed = firstFailed(watchConditions({ ...standingFacts(standing), maxTotalCents }));
  if (failed === "assistant") return "assistant_disconnected";
  if (failed === "purchases_paused") return "purchases_paused";
  if (failed === "per_order_limit") return "limits_lowered";
  return null;
};

/**
 * How a purchase's state is recorded on its watch: processing keeps it on the watch (executing
 * until the bank's answer); refused (the bank never answered, the hold released) ends the watch
 * payment_failed (one purchase per watch); requires_person moves it to needs_you; anything else
 * (held, capturing, paid, or cancelled by the person from the copy email) bought.
 */
export const purchaseRecord = (
  status: string,
): "keep_processing" | "payment_failed" | "needs_person" | "bought" => {
  if (status === "processing") return "keep_processing";
  if (status === "refused") return "payment_failed";
  if (status === "requires_person") return "needs_person";
  return "bought";
};

/** The outcome an expiry ends a watch with: over_your_total when it was last seen over its total. */
export const expiryOutcome = (overTotal: boolean) => (overTotal ? "over_your_total" : "expired");

/** A live watch as the 25-watch limit counts it: an any-of group's alternatives carry its id. */
type LiveWatch = { id: number; itemId: number; groupId?: string | null };

/**
 * How many watches the person's live watches count as toward the 25: each watch one, except that
 * the alternatives of one any-of group count once together (ADR 0118).
 */
export const liveWatchCount = (live: readonly LiveWatch[]) =>
  new Set(live.map((watched) => watched.groupId ?? watched.id)).size;

/**
 * Whether the person's live watches let a watch on `itemId` be set: one live watch per item
 * (already_watching, naming it), at most `maxLiveWatches` live at once (liveWatchCount); null when it may.
 */
export const liveWatchRefusal = (
  live: readonly LiveWatch[],
  itemId: number,
): { code: "already_watching"; priceWatchId: number } | { code: "too_many_watches" } | null => {
  const same = live.find((watched) => watched.itemId === itemId);
  if (same) return { code: "already_watching", priceWatchId: same.id };
  if (liveWatchCount(live) >= maxLiveWatches) return { code: "too_many_watches" };
  return null;
};
