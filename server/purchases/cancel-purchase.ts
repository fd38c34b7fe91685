/**
 * The person cancels a held purchase from the link in its copy email (B3-13, B3-18). Before
 * cancel_until the guarded move held -> cancelled wins or loses against the charge's claim
 * (held -> capturing) in one conditional update each, so exactly one of cancelled and paid
 * happens; the winner releases the hold (`pur_x:release`), writes the confirmation email and tells
 * the sleeping charge function to stop (`purchase/cancelled`, event id = the purchase id).
 * A second cancel answers "already cancelled" and calls nothing; after cancel_until it is refused
 * with too_late_to_cancel; once the charge has been claimed, already_charged.
 */
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { notifyPurchaseCancelled } from "../platform/jobs/events";
import type { PaymentProvider } from "../payments";
import { cancelHeld } from "./purchase-hold";
import { findCancelState } from "./store/purchases";

export type CancelResult = {
  id: string;
  status: "cancelled";
  alreadyCancelled: boolean;
  reason: string | null;
};

export const cancelPurchase = async (
  db: Db,
  provider: PaymentProvider,
  options: { id: string; now: Date; by: "person" | "operator" },
): Promise<CancelResult> => {
  const { id, now } = options;
  if (await cancelHeld(db, provider, { id, event: "cancel", now, by: options.by })) {
    notifyPurchaseCancelled(id);
    return { id, status: "cancelled", alreadyCancelled: false, reason: "cancelled_by_person" };
  }
  const purchase = await findCancelState(db, id);
  if (!purchase) throw new AppError("not_found", { message: "No such purchase." });
  switch (purchase.status) {
    case "cancelled":
      return { id, status: "cancelled", alreadyCancelled: true, reason: purchase.reason };
    case "held":
      throw new AppError("too_late_to_cancel", {
        message: `The purchase could be cancelled until ${purchase.cancelUntil.toISOString()}; the card is charged as announced.`,
        details: { cancel_until: purchase.cancelUntil.toISOString() },
      });
    case "capturing":
    case "paid":
    case "refunded":
      throw new AppError("already_charged", {
        message: "The card was already charged for this purchase; it can no longer be cancelled.",
      });
    default:
      throw new AppError("purchase_closed", {
        message: "This purchase holds nothing on your card: there is nothing to cancel.",
      });
  }
};
