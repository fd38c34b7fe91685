/**
 * The search watch's state machine, the one place that says which event moves a watch from which
 * status to which. Pure: the store turns a rule into one guarded conditional update
 * (`moveSearchWatch`), so however many matchers, sweeps and cancels race, a watch moves along
 * these arrows only, and a buying watch claims its purchase once.
 *
 *   active    --claim--------> executing  (buy: its first new match, quoted within max_total)
 *   executing --release------> active     (the purchase path refused for now: price moved, rate)
 *   executing --bought-------> fulfilled  (outcome bought; the purchase holds the card)
 *   executing --needs_person-> needs_you  (card_declined / authentication_required)
 *   active    --expire-------> expired    (outcome expired)
 *   active    --cancel-------> cancelled  (the person or the app; outcome cancelled)
 *   active|executing --end---> cancelled  (the service: limits_lowered, purchases_paused, ...)
 *
 * A notify watch only ever leaves active by expire or cancel. active and executing are live (they
 * count toward the per-person limit).
 */
import { type TimedTransition, timedRule } from "../core/timed-transition";
export const searchWatchStatuses = [
  "active",
  "executing",
  "fulfilled",
  "needs_you",
  "cancelled",
  "expired",
] as const;
export type SearchWatchState = (typeof searchWatchStatuses)[number];

export const searchWatchModes = ["notify", "buy"] as const;
export type SearchWatchMode = (typeof searchWatchModes)[number];

export const searchWatchEvents = [
  "claim",
  "release",
  "bought",
  "needs_person",
  "expire",
  "cancel",
  "end",
] as const;
export type SearchWatchEvent = (typeof searchWatchEvents)[number];

export type SearchWatchTransition = TimedTransition<SearchWatchState>;

const rule = (
  from: readonly SearchWatchState[],
  to: SearchWatchState,
  options?: Partial<Omit<SearchWatchTransition, "from" | "to">>,
) => timedRule(from, to, options);

const transitions: Record<SearchWatchEvent, SearchWatchTransition> = {
  claim: rule(["active"], "executing", { needsUnexpired: true }),
  release: rule(["executing"], "active"),
  bought: rule(["executing"], "fulfilled", { outcome: "bought" }),
  needs_person: rule(["executing"], "needs_you"),
  expire: rule(["active"], "expired", { outcome: "expired", needsExpired: true }),
  cancel: rule(["active"], "cancelled", { outcome: "cancelled" }),
  end: rule(["active", "executing"], "cancelled"),
};

export const searchWatchTransition = (event: SearchWatchEvent) => transitions[event];

/** Whether the person may cancel a watch in this status now: the state table's own cancel rule. */
export const isCancellableSearchWatch = (status: SearchWatchState) =>
  transitions.cancel.from.includes(status);

/** Live search watches one person may hold, all apps together (409 too_many_search_watches beyond). */
export const maxLiveSearchWatches = 10;
/** Days a search watch lasts: 1 to 30; 7 when omitted (as price watches). */
export const searchWatchDays = { min: 1, max: 30, default: 7 } as const;
/** At most one notification email per watch in this window: later matches wait for one digest. */
export const digestWindowMs = 3_600_000;
/** A buying watch left executing this long without an answer is picked up again (a crash, a slow bank). */
export const executingRetryMs = 60_000;

/** Why a match was recorded, from the catalogue event's kind. */
export const matchReasonOf = (kind: string) =>
  kind === "listed" ? "new_listing" : kind === "available" ? "back_in_stock" : "price_change";

/** The POST /purchases refusals that end a buying watch, with which outcome; null: active again (it may buy a later match). */
export const outcomeOfPurchaseRefusal = (code: string): string | null => {
  switch (code) {
    case "over_spending_limit":
    case "spending_limit_not_set":
      return "limits_lowered";
    case "purchases_paused":
      return "purchases_paused";
    case "agent_purchases_unavailable":
      return "assistant_disconnected";
    case "store_requires_checkout_link":
    case "not_available_in_market":
    case "address_not_on_file":
    case "no_saved_card":
    case "card_not_on_this_account":
      return code;
    default:
      // item_unavailable, price_changed, too_many_purchases, quote_expired: a later match may buy.
      return null;
  }
};
