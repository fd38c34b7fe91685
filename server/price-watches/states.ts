/**
 * The price watch's state machine, the one place that says which event moves a watch from which
 * status to which, and with what outcome. Pure: the writer (server/price-watches/watch-writer.ts,
 * `moveWatch`) turns a rule into one guarded conditional update, so however many evaluators,
 * sweeps and cancels race, a watch moves along these arrows only, and claims its purchase once.
 *
 * A price watch is a standing order (server/core/standing-order.ts: claim, release, bought,
 * needs_person, expire, cancel, end), with these of its own:
 *
 *   active    --expire----------> expired     (outcome expired, or over_your_total when last seen over)
 *   active|executing --item_sold-> item_sold  (someone else bought it first)
 *   active|executing --withdraw-> cancelled   (the person's change took the watch's standing away:
 *                                              limits lowered, paused, assistant disconnected; an
 *                                              executing one only while its purchase does not exist,
 *                                              decided under the person's lock: watch-standing.ts)
 *
 * active and executing are live (they count toward the 25 and toward price_watchers); the rest
 * are final.
 */
import {
  standingEndOutcomeOfRefusal,
  standingEndOutcomes,
  standingOrderTransitions,
} from "../core/standing-order";
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

/** The standing order's moves (server/core/standing-order.ts), and the two only a price watch makes. */
const transitions: Record<PriceWatchEvent, PriceWatchTransition> = {
  ...standingOrderTransitions,
  item_sold: timedRule(["active", "executing"], "item_sold", { outcome: "item_sold" }),
  withdraw: timedRule(["active", "executing"], "cancelled"),
};

export const priceWatchTransition = (event: PriceWatchEvent): PriceWatchTransition =>
  transitions[event];

/** Outcomes the service ends a watch with (event `end`), besides bought, item_sold, expired and cancelled. */
export const endOutcomes = [...standingEndOutcomes, "payment_failed"] as const;
export type EndOutcome = (typeof endOutcomes)[number];

/** Live watches a person may have at once (the reference's Limits). */
export const maxLiveWatches = 25;
/** Days a watch lasts: 1 to 30; 7 when omitted (docs/adr/0071-price-watch-api.md). */
export const watchDays = { min: 1, max: 30, default: 7 } as const;

/**
 * The POST /purchases refusal codes that end a watch, and with which outcome; the others leave it
 * active. Those of the person's standing are every standing order's (server/core/standing-order.ts);
 * a price watch watches one item, so an item no longer for sale also ends it.
 */
export const outcomeOfPurchaseRefusal = (code: string): EndOutcome | "item_sold" | null => {
  if (code === "item_unavailable" || code === "price_unavailable") return "item_sold";
  // quote_already_purchased never ends or releases by itself: the caller records the purchase that
  // exists; price_changed (a newer price change re-evaluates it), too_many_purchases and
  // quote_expired: try again later.
  return standingEndOutcomeOfRefusal(code);
};
