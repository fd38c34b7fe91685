/**
 * The price watch's state machine, the one place that says which event moves a watch from which
 * status to which, and with what outcome. Pure: the writer (server/price-watches/watch-writer.ts,
 * `moveWatch`) turns a rule into one guarded conditional update, so however many evaluators,
 * sweeps and cancels race, a watch moves along these arrows only, and claims its purchase once.
 *
 *   active    --claim-----------> executing   (price within max_price, fresh total within max_total)
 *   executing --release---------> active      (the purchase path refused for now: price moved, rate)
 *   executing --bought----------> fulfilled   (outcome bought; the purchase holds the card)
 *   executing --needs_person----> needs_you   (outcome card_declined / authentication_required)
 *   active    --expire----------> expired     (outcome expired, or over_your_total when last seen over)
 *   active|executing --item_sold-> item_sold  (someone else bought it first)
 *   active    --cancel----------> cancelled   (the person or the assistant; outcome cancelled)
 *   active|executing --end------> cancelled   (the service: limits_lowered, purchases_paused,
 *                                              assistant_disconnected, and the other refusals)
 *   active|executing --withdraw-> cancelled   (the person's change took the watch's standing away:
 *                                              limits lowered, paused, assistant disconnected; an
 *                                              executing one only while its purchase does not exist,
 *                                              decided under the person's lock: watch-standing.ts)
 *
 * active and executing are live (they count toward the 25 and toward price_watchers); the rest
 * are final. Expiry applies only to an active watch: a claimed purchase runs to its answer.
 */
import { type TimedTransition, timedRule } from "../core/timed-transition";
export const priceWatchStatuses = [
  "active",
  "executing",
  "fulfilled",
  "item_sold",
  "needs_you",
  "cancelled",
  "expired",
] as const;
export type PriceWatchState = (typeof priceWatchStatuses)[number];

export const liveWatchStatuses = [
  "active",
  "executing",
] as const satisfies readonly PriceWatchState[];

export const priceWatchEvents = [
  "claim",
  "release",
  "bought",
  "needs_person",
  "expire",
  "item_sold",
  "cancel",
  "end",
  "withdraw",
] as const;
export type PriceWatchEvent = (typeof priceWatchEvents)[number];

export type PriceWatchTransition = TimedTransition<PriceWatchState>;

const rule = (
  from: readonly PriceWatchState[],
  to: PriceWatchState,
  options?: Partial<Omit<PriceWatchTransition, "from" | "to">>,
) => timedRule(from, to, options);

const transitions: Record<PriceWatchEvent, PriceWatchTransition> = {
  claim: rule(["active"], "executing", { needsUnexpired: true }),
  release: rule(["executing"], "active"),
  bought: rule(["executing"], "fulfilled", { outcome: "bought" }),
  needs_person: rule(["executing"], "needs_you"),
  expire: rule(["active"], "expired", { needsExpired: true }),
  item_sold: rule(["active", "executing"], "item_sold", { outcome: "item_sold" }),
  cancel: rule(["active"], "cancelled", { outcome: "cancelled" }),
  end: rule(["active", "executing"], "cancelled"),
  withdraw: rule(["active", "executing"], "cancelled"),
};

export const priceWatchTransition = (event: PriceWatchEvent): PriceWatchTransition =>
  transitions[event];

/** Outcomes the service ends a watch with (event `end`), besides bought, item_sold, expired and cancelled. */
export const endOutcomes = [
  "limits_lowered",
  "purchases_paused",
  "assistant_disconnected",
  "store_requires_checkout_link",
  "not_available_in_market",
  "address_not_on_file",
  "no_saved_card",
  "card_not_on_this_account",
  "payment_failed",
] as const;
export type EndOutcome = (typeof endOutcomes)[number];

/** Live watches a person may have at once (the reference's Limits). */
export const maxLiveWatches = 25;
/** Days a watch lasts: 1 to 30; 7 when omitted (docs/adr/0071-price-watch-api.md). */
export const watchDays = { min: 1, max: 30, default: 7 } as const;

/** The POST /purchases refusal codes that end a watch, and with which outcome; the others leave it active. */
export const outcomeOfPurchaseRefusal = (code: string): EndOutcome | "item_sold" | null => {
  switch (code) {
    case "over_spending_limit":
    case "spending_limit_not_set":
      return "limits_lowered";
    case "purchases_paused":
      return "purchases_paused";
    case "agent_purchases_unavailable":
      return "assistant_disconnected";
    case "item_unavailable":
    case "price_unavailable":
      return "item_sold";
    case "store_requires_checkout_link":
    case "not_available_in_market":
    case "address_not_on_file":
    case "no_saved_card":
    case "card_not_on_this_account":
      return code;
    case "quote_already_purchased":
      // Never ends or releases by itself: the caller records the purchase that exists.
      return null;
    default:
      // price_changed (a newer price change re-evaluates it), too_many_purchases, quote_expired: try again later.
      return null;
  }
};
