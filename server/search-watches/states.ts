/**
 * The search watch's state machine: a standing order's (server/core/standing-order.ts: claim,
 * release, bought, needs_person, expire, cancel, end) and no move of its own. Pure: the store
 * turns a rule into one guarded conditional update (`moveSearchWatch`), so however many matchers,
 * sweeps and cancels race, a watch moves along those arrows only, and a buying watch claims its
 * purchase once (its first new match, quoted within max_total).
 *
 * A notify watch only ever leaves active by expire or cancel. active and executing are live (they
 * count toward the per-person limit).
 */
import { standingEndOutcomeOfRefusal, standingOrderTransitions } from "../core/standing-order";
import type { TimedTransition } from "../core/timed-transition";
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

const transitions: Record<SearchWatchEvent, SearchWatchTransition> = standingOrderTransitions;

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

/**
 * The POST /purchases refusals that end a buying watch, with which outcome: those of the person's
 * standing (every standing order's); null for the others (item_unavailable, price_changed,
 * too_many_purchases, quote_expired): active again, a later match may buy.
 */
export const outcomeOfPurchaseRefusal = standingEndOutcomeOfRefusal;
