/**
 * The life of a standing order, written once for the three kinds that buy or notify for a person
 * while they are away: a price watch, an any-of watch group and a search watch. Each kind's state
 * table is these moves plus its own (a price watch also ends item_sold, and is withdrawn when the
 * person's change takes its standing away), so a change to when a standing order may be claimed,
 * cancelled or expired is made here, for all three.
 *
 *   active    --claim--------> executing  (it qualifies; its purchase is claimed once)
 *   executing --release------> active     (the purchase path refused for now: price moved, rate)
 *   executing --bought-------> fulfilled  (outcome bought; the purchase holds the card)
 *   executing --needs_person-> needs_you  (outcome card_declined / authentication_required)
 *   active    --expire-------> expired    (outcome expired; a kind may refine it: over_your_total)
 *   active    --cancel-------> cancelled  (the person or the assistant; outcome cancelled)
 *   active|executing --end---> cancelled  (the service, with the outcome that says why)
 *
 * Expiry applies only to an active order: a claimed purchase runs to its answer.
 */
import { type TimedTransition, timedRule } from "./timed-transition";

/** The states every kind has; active and executing are live, the rest final. */
export type StandingOrderState =
  "active" | "executing" | "fulfilled" | "needs_you" | "cancelled" | "expired";

export type StandingOrderEvent =
  "claim" | "release" | "bought" | "needs_person" | "expire" | "cancel" | "end";

export const isLiveStandingOrder = (status: string) =>
  status === "active" || status === "executing";

export const standingOrderTransitions: Record<
  StandingOrderEvent,
  TimedTransition<StandingOrderState>
> = {
  claim: timedRule(["active"], "executing", { needsUnexpired: true }),
  release: timedRule(["executing"], "active"),
  bought: timedRule(["executing"], "fulfilled", { outcome: "bought" }),
  needs_person: timedRule(["executing"], "needs_you"),
  expire: timedRule(["active"], "expired", { outcome: "expired", needsExpired: true }),
  cancel: timedRule(["active"], "cancelled", { outcome: "cancelled" }),
  end: timedRule(["active", "executing"], "cancelled"),
};

/**
 * The outcome a move records: the mover's own when it gives one (an expiry over_your_total, an end's
 * reason), else the table's. One precedence for every kind's writer.
 */
export const outcomeOfMove = (rule: { outcome: string | null }, given?: string | null) =>
  given ?? rule.outcome;

/** The outcomes a standing order ends with when the person's standing no longer lets it buy. */
export const standingEndOutcomes = [
  "limits_lowered",
  "purchases_paused",
  "assistant_disconnected",
  "store_requires_checkout_link",
  "not_available_in_market",
  "address_not_on_file",
  "no_saved_card",
  "card_not_on_this_account",
] as const;
export type StandingEndOutcome = (typeof standingEndOutcomes)[number];

/**
 * The POST /purchases refusals that end a standing order because the person's standing no longer
 * lets it buy (limits, pause, the assistant's grant, the store, the market, the address, the card),
 * with the outcome it ends with; null for every other code, which the kind decides (a later price
 * or match may buy).
 */
export const standingEndOutcomeOfRefusal = (code: string): StandingEndOutcome | null => {
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
      return null;
  }
};
