/**
 * A Stripe event about an assistant purchase's PaymentIntent, acted on from what Stripe says now:
 * - a hold (requires_capture) for a purchase still `processing` (the bank's answer to POST
 *   /purchases was lost, or has not been recorded yet) completes it through the late-authorize path
 *   (completeLateAuthorize: held, charges_at, the copy email), whose guarded move lets exactly one
 *   of the request, this webhook and the reconciliation record it;
 * - a capture or a cancel is recorded on the payment, guarded by the status it leaves; the purchase
 *   itself moves only through its own state machine (the charge at charges_at reads the payment).
 * Declines and authentication steps are left to POST /purchases and the reconciliation, which
 * answer the assistant and the person.
 */
import type { Db } from "../../platform/db";
import {
  type PaymentOfIntent,
  type PaymentProvider,
  recordCapturedByProcessor,
  recordVoidedByProcessor,
} from "../../payments";
import { completeLateAuthorize } from "../../purchases";

export const actOnPurchasePayment = async (
  db: Db,
  provider: PaymentProvider,
  options: { payment: PaymentOfIntent; now: Date },
) => {
  const { payment, now } = options;
  const found = await provider.retrieve({ paymentId: payment.processorPaymentId });
  if (!found) return "not_found";
  if (found.status === "authorized") {
    const isCompleted = await completeLateAuthorize(db, provider, {
      id: payment.purchaseId!,
      now,
      processorPaymentId: payment.processorPaymentId,
    });
    return isCompleted ? "purchase_held" : "unchanged";
  }
  if (found.status === "captured") {
    return (await recordCapturedByProcessor(db, payment.id, now)) ? "captured" : "unchanged";
  }
  if (found.status === "voided") {
    return (await recordVoidedByProcessor(db, payment.id, now)) ? "voided" : "unchanged";
  }
  return "unchanged";
};
