/**
 * `payment:capture-failed`: every payment whose capture the processor refused, or that stopped
 * being retried (capture_failed), with what it paid for: the checkout and its order number (the
 * orders stand with no money behind them) or the assistant purchase, and the shopper's email. The
 * operator settles each by hand (a new payment, or cancelling the orders); oldest first.
 */
import { db } from "../../platform/db";
import { listFailedCaptures } from "../../payments";

export const listCaptureFailures = async () => {
  const payments = await listFailedCaptures(db());
  return {
    payments: payments.map((payment) => ({
      payment_id: payment.id,
      checkout_id: payment.checkoutId,
      purchase_id: payment.purchaseId,
      order_number: payment.checkout?.orderNumber ?? payment.purchase?.orderNumber ?? null,
      email: payment.checkout?.email ?? payment.purchase?.email ?? null,
      amount_cents: payment.amountCents,
      reason: payment.declineCode,
      processor_payment_id: payment.processorPaymentId,
      failed_at: payment.updatedAt.toISOString(),
    })),
  };
};
