/**
 * `payment:capture-failed`: every payment whose capture the processor refused, or that stopped
 * being retried (capture_failed), with what it paid for: the checkout and its order number (the
 * orders stand with no money behind them) or the assistant purchase, and the shopper's email. The
 * operator settles each by hand (a new payment, or cancelling the orders); oldest first.
 */
import { db } from "../../platform/db";

export const listCaptureFailures = async () => {
  const payments = await db().payment.findMany({
    where: { status: "capture_failed" },
    orderBy: { updatedAt: "asc" },
    take: 500,
    select: {
      id: true,
      checkoutId: true,
      purchaseId: true,
      amountCents: true,
      declineCode: true,
      processorPaymentId: true,
      updatedAt: true,
      checkout: { select: { orderNumber: true, email: true, captureFailedAt: true } },
      purchase: { select: { orderNumber: true, email: true, status: true } },
    },
  });
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
