/**
 * The one writer of a checkout's status. Every change (cancel by the partner, expiry by the sweep,
 * the Inngest function or the sandbox helper, payment, and closing at payment time when items moved
 * or the link lapsed) goes through `moveCheckouts`: one conditional update guarded by the state
 * table (server/checkout/states.ts), so a status only moves along its arrows however many
 * instances race, and the reservations go back in the same transaction when the rule says so.
 */
import { type Db, inTransaction, type Tx } from "../platform/db";
import { type CheckoutEvent, checkoutTransition } from "./states";
import { checkoutEventType } from "../partners";
import { recordWebhookEvent } from "../partners";
import { toCheckoutDetail } from "./checkout-view";
import { release } from "./reservations";
import { lockDueCheckouts, moveCheckoutRows, readCheckout } from "./store/checkouts";
import { ordersOfCheckout } from "./store/orders";

type Move = {
  ids: readonly string[];
  event: CheckoutEvent;
  now: Date;
  /** Why it closed when not by the partner: price_changed, item_unavailable. */
  reason?: string | null;
  /** For `pay`: the order number and the payment that paid (the only one ever captured). */
  paid?: { orderNumber: string; paymentId: string };
};

/** Applies `event` to each checkout where the table allows it; returns the ids that moved. */
export const moveCheckouts = async (tx: Tx, move: Move): Promise<string[]> => {
  if (move.ids.length === 0) return [];
  const rule = checkoutTransition(move.event);
  const closing =
    rule.to === "paid"
      ? {
          paidAt: move.now,
          orderNumber: move.paid?.orderNumber,
          paidPaymentId: move.paid?.paymentId,
        }
      : { closedAt: move.now, closedReason: move.reason ?? null };
  const moved = await moveCheckoutRows(tx, {
    ids: move.ids,
    from: rule.from,
    to: rule.to,
    dueBy: rule.needsDue ? move.now : undefined,
    data: { updatedAt: move.now, ...closing },
  });
  const ids = moved.map((row) => row.id);
  if (rule.releasesReservations) await release(tx, ids);
  const type = checkoutEventType(rule.to);
  // The event's payload is the checkout as GET /checkout/sessions/{id} answers it after the move.
  for (const row of type ? moved : []) {
    await recordWebhookEvent(tx, {
      type: type!,
      clientId: row.clientId,
      personId: row.personId,
      objectId: row.id,
      now: move.now,
      data: async () => {
        const checkout = await readCheckout(tx, row.id);
        const orders = checkout.status === "paid" ? await ordersOfCheckout(tx, row.id) : [];
        return toCheckoutDetail(checkout, orders);
      },
    });
  }
  return ids;
};

/** Cancels, or expires once due, in its own transaction; false when the table refused the move. */
export const closeCheckout = async (
  db: Db,
  options: { id: string; to: "cancelled" | "expired"; now: Date; reason?: string },
) =>
  inTransaction(db, async (tx) => {
    const event = options.to === "expired" ? "expire" : "cancel";
    return (
      (
        await moveCheckouts(tx, {
          ids: [options.id],
          event,
          now: options.now,
          reason: options.reason,
        })
      ).length === 1
    );
  });

/**
 * Expires every due checkout (a batch at a time). SKIP LOCKED leaves rows another instance, or a
 * payment being finalised, holds: they are decided there, or by the next sweep.
 */
export const expireDueCheckouts = async (db: Db, options: { now: Date; limit?: number }) =>
  inTransaction(db, async (tx) => {
    const due = await lockDueCheckouts(tx, {
      from: checkoutTransition("expire").from,
      now: options.now,
      limit: options.limit ?? 100,
    });
    const expired = await moveCheckouts(tx, {
      ids: due,
      event: "expire",
      now: options.now,
    });
    return { expired: expired.length };
  });
