/**
 * Completes a checkout attempt paid in the browser with Stripe's Payment Element, whichever
 * arrives first: the page after confirmPayment (or on its return_url after 3-D Secure), or
 * Stripe's webhook (POST /stripe/webhook). Neither is trusted: the intent is retrieved from the
 * processor, and only what it says moves the attempt.
 * - authorized (`requires_capture`): finalizePayment claims the attempt under the checkout's lock
 *   (a guarded move requires_action -> authorized), places the orders once and captures; a second
 *   arrival finds the checkout paid by this attempt and changes nothing. An attempt a newer one
 *   abandoned (voided) never pays: its hold is released.
 * - declined: the decline is recorded (guarded) and the intent cancelled, so that only a new
 *   attempt can pay; the page starts one when the person tries again.
 * - cancelled at the processor: the attempt is voided (guarded).
 * - still awaiting the person (or unknown to us): nothing to do, null.
 */
import type { Db } from "../../platform/db";
import { ownerOf, type PaymentProvider, processorKey, retryReleaseLater } from "../../payments";
import { findAttemptByProcessorId, moveAttempt, recordCardLast4 } from "../store/borrowed";
import { finalizePayment } from "./finalize-payment";
import type { PayOutcome } from "./page.schema";
import { declinedOutcome } from "./pay";

export const completeCheckoutIntent = async (
  db: Db,
  provider: PaymentProvider,
  options: { processorPaymentId: string; now: Date },
): Promise<PayOutcome | null> => {
  const { processorPaymentId, now } = options;
  const row = await findAttemptByProcessorId(db, processorPaymentId);
  if (!row?.checkoutId) return null;
  const payment = { id: row.id, checkoutId: row.checkoutId, attempt: row.attempt };
  const intent = await provider.retrieve({ paymentId: processorPaymentId });
  if (!intent) return null;

  if (intent.status === "authorized" || intent.status === "captured") {
    if (intent.cardLast4) await recordCardLast4(db, payment.id, intent.cardLast4);
    // finalizePayment claims the attempt under the checkout's lock (the lock startAttempt voids
    // abandoned attempts under) with its guarded move to authorized: an attempt a newer one
    // abandoned, or a second arrival, never places orders again; an abandoned one's hold is released.
    return finalizePayment(db, provider, { payment, processorPaymentId, now });
  }
  if (intent.status === "declined") {
    const isDeclined = await moveAttempt(db, {
      id: payment.id,
      from: ["requires_action"],
      to: "declined",
      declineCode: intent.declineCode,
    });
    // The same intent could still be confirmed with another card (a stale tab): only a new attempt may pay.
    if (isDeclined)
      await provider
        .release({
          idempotencyKey: processorKey(ownerOf(payment), "release"),
          paymentId: processorPaymentId,
        })
        .catch((error: unknown) => retryReleaseLater(db, payment.id, error, now));
    return isDeclined || row.status === "declined" ? declinedOutcome(intent.declineCode) : null;
  }
  if (intent.status === "voided") {
    await moveAttempt(db, {
      id: payment.id,
      from: ["requires_action", "authorizing"],
      to: "voided",
    });
    return {
      outcome: "declined",
      reason: "stopped",
      message: "This payment was stopped before anything was charged. You can pay again.",
    };
  }
  return null;
};
