/**
 * The any-of watch group's state machine (POST /price-watch-groups, ADR 0118), pure: which event
 * moves a group from which status to which. The group's writer (group-writer.ts) turns a rule into
 * one conditional UPDATE of the group row, so of two evaluators whose alternatives qualify at once
 * only one claims the group, and the group buys once.
 *
 * A group is a standing order (server/core/standing-order.ts), claimed with one alternative in the
 * same transaction; release when the claimed alternative did not buy and may not now, or ended
 * alone (item sold, its store sells only by link); bought with purchase_id (the others end
 * fulfilled_by_alternative); expire with outcome expired, or over_your_total; end by the service
 * (the person's standing or a refusal that ends every alternative; or no alternative left, with the
 * outcome of the last).
 *
 * active and executing are live: a live group counts as ONE watch toward the 25.
 */
import type { PriceWatchGroupStatus } from "../../generated/prisma/client";
import {
  isLiveStandingOrder,
  type StandingOrderEvent,
  standingOrderTransitions,
} from "../../core/standing-order";
import type { TimedTransition } from "../../core/timed-transition";

export const priceWatchGroupStatuses = [
  "active",
  "executing",
  "fulfilled",
  "needs_you",
  "cancelled",
  "expired",
] as const satisfies readonly PriceWatchGroupStatus[];
export type GroupState = (typeof priceWatchGroupStatuses)[number];

export type GroupEvent = StandingOrderEvent;

export type GroupTransition = TimedTransition<GroupState>;

const transitions: Record<GroupEvent, GroupTransition> = standingOrderTransitions;

export const groupTransition = (event: GroupEvent): GroupTransition => transitions[event];

/** Whether the person may cancel a group in this status now: the state table's own cancel rule. */
export const isCancellableGroup = (status: GroupState) => transitions.cancel.from.includes(status);

export const isLiveGroup = (status: GroupState) => isLiveStandingOrder(status);

/** Alternatives in one group: 1 to 10 (issue 29 §4). */
export const maxAlternatives = 10;

/**
 * The outcome the other live alternatives end with (status cancelled) when one of them bought: the
 * group did what it was for. `alternative_needs_you`: one alternative needs the person to pay
 * through a link, so the others stop (never two purchases from one group).
 */
export const fulfilledByAlternative = "fulfilled_by_alternative";
export const alternativeNeedsYou = "alternative_needs_you";

/**
 * Whether an alternative's end outcome ends only that alternative (its item sold, its store now
 * sells only through a link): the group goes on with the others. Every other end (the person's
 * standing, address, card, market, a payment that failed) is the person's and ends the whole group.
 */
export const endsOnlyTheAlternative = (outcome: string) =>
  outcome === "item_sold" || outcome === "store_requires_checkout_link";

/**
 * An alternative given without a price of its own carries the group's max_total as its max_price
 * (POST /price-watch-groups): the price alone within the total. Its emails and the dashboard show it
 * as "any price within the total".
 */
export const isAnyPriceWithinTotal = (
  alternative: { maxPriceCents: number },
  maxTotalCents: number,
) => alternative.maxPriceCents === maxTotalCents;
