/**
 * The checkout's state machine, the one place that says which event moves a checkout from which
 * status to which. Pure: the writer (server/checkout/checkout-transitions.ts) turns a rule
 * into one guarded conditional update, so a status can only move along these arrows.
 *
 *   awaiting_payment --pay-----> paid
 *   awaiting_payment --cancel--> cancelled   (partner, or items moved at payment)
 *   awaiting_payment --expire--> expired     (only once expires_at has passed)
 *
 * paid, cancelled and expired are final.
 */
export const checkoutStatuses = ["awaiting_payment", "paid", "cancelled", "expired"] as const;
export type CheckoutState = (typeof checkoutStatuses)[number];

export const checkoutEvents = ["pay", "cancel", "expire"] as const;
export type CheckoutEvent = (typeof checkoutEvents)[number];

export type CheckoutTransition = {
  from: readonly CheckoutState[];
  to: CheckoutState;
  /** The event only applies once the checkout's expires_at is at or before now. */
  needsDue: boolean;
  /** The checkout's reservations go back to stock in the same transaction. */
  releasesReservations: boolean;
};

const transitions: Record<CheckoutEvent, CheckoutTransition> = {
  pay: { from: ["awaiting_payment"], to: "paid", needsDue: false, releasesReservations: false },
  cancel: {
    from: ["awaiting_payment"],
    to: "cancelled",
    needsDue: false,
    releasesReservations: true,
  },
  expire: { from: ["awaiting_payment"], to: "expired", needsDue: true, releasesReservations: true },
};

/** The rule of an event. */
export const checkoutTransition = (event: CheckoutEvent): CheckoutTransition => transitions[event];

/** Where `event` takes a checkout in `status`, or null when the event does not apply there. */
export const nextCheckoutState = (
  status: CheckoutState,
  event: CheckoutEvent,
  options: { isDue: boolean },
): CheckoutState | null => {
  const rule = transitions[event];
  if (!rule.from.includes(status)) return null;
  if (rule.needsDue && !options.isDue) return null;
  return rule.to;
};

/** A final status: nothing moves it any more. */
export const isFinalCheckoutState = (status: CheckoutState) =>
  checkoutEvents.every((event) => !transitions[event].from.includes(status));
