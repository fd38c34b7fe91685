/**
 * The purchase's one payment as the payment steps need it, and the two ways a hold ends without a
 * charge. A release happens after the move that decided it commits; if the process stops in
 * between, reconcilePurchases releases any hold left under a closed purchase (same key, so never
 * twice).
 */
import { type Db, inTransaction } from "../platform/db";
import type { PurchaseEvent } from "./states";
import { findPaymentOfPurchase, type HeldPayment, releasePayment } from "../payments";
import type { PaymentProvider } from "../payments";
import type { PurchaseOutcome } from "../../emails/purchase-closed";
import { movePurchase } from "./purchase-writer";
import { writeClosedEmail } from "./purchase-emails";
import { logger } from "../platform/observability/log";

/** The purchase's payment while it holds money at the processor (authorized, with its processor id), else null. */
export const heldPaymentOf = async (db: Db, purchaseId: string): Promise<HeldPayment | null> => {
  const payment = await findPaymentOfPurchase(db, purchaseId);
  if (
    !payment?.processorPaymentId ||
    (payment.status !== "authorized" && payment.status !== "requires_action")
  )
    return null;
  return { ...payment, processorPaymentId: payment.processorPaymentId };
};

/**
 * Releases the purchase's hold if it still has one (key `pur_x:release`); nothing is charged. Runs
 * after the move that closed the purchase committed: a processor that fails now (down, a timeout)
 * changes nothing of that (review L6: the person is told it is cancelled, not shown a 500); the
 * sweep's reconcilePurchases releases the hold left under the closed purchase, with the same key.
 */
const releaseHold = async (db: Db, provider: PaymentProvider, purchaseId: string) => {
  const payment = await heldPaymentOf(db, purchaseId);
  if (!payment) return;
  try {
    await releasePayment(db, provider, payment);
  } catch (error) {
    logger.warn(
      { purchase_id: purchaseId, error: (error as Error).message },
      "purchase hold release deferred to the sweep",
    );
  }
};

const outcomes: Partial<Record<PurchaseEvent, PurchaseOutcome>> = {
  cancel: "cancelled",
  item_sold: "item_sold",
  notice_undelivered: "notice_undelivered",
};

/**
 * Moves a held purchase to cancelled (the person's cancel, item_sold, notice_undelivered) with its
 * email in the same transaction, then releases the hold. False when the table refused the move.
 */
export const cancelHeld = async (
  db: Db,
  provider: PaymentProvider,
  options: {
    id: string;
    event: "cancel" | "item_sold" | "notice_undelivered";
    now: Date;
    by?: string;
  },
) => {
  const moved = await inTransaction(db, async (tx) => {
    if (!(await movePurchase(tx, options))) return false;
    await writeClosedEmail(tx, options.id, outcomes[options.event]!, options.now);
    return true;
  });
  if (moved) await releaseHold(db, provider, options.id);
  return moved;
};
