/**
 * The assistant purchase's state machine, the one place that says which event moves a purchase from
 * which status to which. Pure: the writer (server/purchases/purchase-writer.ts, `movePurchase`)
 * turns a rule into one guarded conditional update, so a status only moves along these arrows
 * however many workers race (Inngest function, sweep, the person's cancel link).
 *
 *   processing --hold---------------> held              (the bank accepted the hold)
 *   processing --needs_person-------> requires_person   (declined, or the bank wants the person)
 *   processing --refuse-------------> refused           (the bank never answered: hold released)
 *   held       --claim_charge-------> capturing         (only once charges_at has passed)
 *   capturing  --charged------------> paid              (the capture succeeded or found it captured)
 *   capturing  --charge_failed------> refused           (the processor released the hold: lapsed)
 *   held       --cancel-------------> cancelled         (the person, only before cancel_until)
 *   held       --item_sold----------> cancelled         (reason item_sold)
 *   held       --notice_undelivered-> cancelled         (only once charges_at has passed)
 *   paid       --refund-------------> refunded
 *
 * `capturing` is internal (shown as held): one worker claimed the charge; a cancel that finds it
 * is too late (already_charged). paid is final but for refund; requires_person, refused,
 * cancelled and refunded are final.
 */
export const purchaseStatuses = [
  "processing",
  "held",
  "capturing",
  "paid",
  "requires_person",
  "refused",
  "cancelled",
  "refunded",
] as const;
export type PurchaseState = (typeof purchaseStatuses)[number];

export const purchaseEvents = [
  "hold",
  "needs_person",
  "refuse",
  "claim_charge",
  "charged",
  "charge_failed",
  "cancel",
  "item_sold",
  "notice_undelivered",
  "refund",
] as const;
export type PurchaseEvent = (typeof purchaseEvents)[number];

export type PurchaseTransition = {
  from: readonly PurchaseState[];
  to: PurchaseState;
  /** The event only applies once charges_at is at or before now. */
  needsDue: boolean;
  /** The event only applies while now is before cancel_until. */
  needsCancellable: boolean;
  /** The reason code recorded with the move (the caller gives it for needs_person and refuse). */
  reason: string | null;
  /** charges_at becomes null: charged or closed. */
  clearsChargesAt: boolean;
};

const rule = (
  from: readonly PurchaseState[],
  to: PurchaseState,
  options: Partial<Omit<PurchaseTransition, "from" | "to">> = {},
): PurchaseTransition => ({
  from,
  to,
  needsDue: false,
  needsCancellable: false,
  reason: null,
  clearsChargesAt: to !== "held" && to !== "capturing",
  ...options,
});

const transitions: Record<PurchaseEvent, PurchaseTransition> = {
  hold: rule(["processing"], "held"),
  needs_person: rule(["processing"], "requires_person"),
  refuse: rule(["processing"], "refused"),
  claim_charge: rule(["held"], "capturing", { needsDue: true }),
  charged: rule(["capturing"], "paid"),
  charge_failed: rule(["capturing"], "refused", { reason: "hold_expired" }),
  cancel: rule(["held"], "cancelled", { needsCancellable: true, reason: "cancelled_by_person" }),
  item_sold: rule(["held"], "cancelled", { reason: "item_sold" }),
  notice_undelivered: rule(["held"], "cancelled", { needsDue: true, reason: "notice_undelivered" }),
  refund: rule(["paid"], "refunded"),
};

/** The rule of an event. */
export const purchaseTransition = (event: PurchaseEvent): PurchaseTransition => transitions[event];

/** Where `event` takes a purchase in `status`, or null when the event does not apply there. */
export const nextPurchaseState = (
  status: PurchaseState,
  event: PurchaseEvent,
  options: { isDue: boolean; isCancellable: boolean },
): PurchaseState | null => {
  const transition = transitions[event];
  if (!transition.from.includes(status)) return null;
  if (transition.needsDue && !options.isDue) return null;
  if (transition.needsCancellable && !options.isCancellable) return null;
  return transition.to;
};

/** A final status: nothing moves it any more. */
export const isFinalPurchaseState = (status: PurchaseState) =>
  purchaseEvents.every((event) => !transitions[event].from.includes(status));

export type PublicPurchaseStatus = Exclude<PurchaseState, "capturing">;

/** The statuses clients see (API, dashboard, cancel page): every status but the internal `capturing`. */
export const publicPurchaseStatuses = purchaseStatuses.filter(
  (status): status is PublicPurchaseStatus => status !== "capturing",
) as [PublicPurchaseStatus, ...PublicPurchaseStatus[]];

/** The status a client sees: `capturing` is a held purchase being charged. */
export const publicPurchaseStatus = (status: PurchaseState): PublicPurchaseStatus =>
  status === "capturing" ? "held" : status;
