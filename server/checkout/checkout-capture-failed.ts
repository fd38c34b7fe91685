/**
 * A checkout whose paying attempt could not be captured (review H1): its orders were placed on a
 * hold the processor no longer has. The checkout is marked (capture_failed_at, which the operator's
 * `payment:capture-failed` listing reads with the payment's capture_failed status) and the shopper
 * is emailed, once, in the same transaction: nothing was charged and the orders do not ship.
 */
import type { PaymentFailedProps } from "../../emails/payment-failed";
import type { Db } from "../platform/db";
import { formatCents } from "../core/money";
import { enqueueEmail } from "../platform/mail/outbox";

/** Marks the checkout paid by `paymentId` as unpaid-for and tells the shopper; a no-op when already marked. */
export const markCheckoutCaptureFailed = async (
  db: Db,
  options: { checkoutId: string; paymentId: string; now: Date },
) =>
  db.$transaction(async (tx) => {
    const { count } = await tx.checkout.updateMany({
      where: { id: options.checkoutId, paidPaymentId: options.paymentId, captureFailedAt: null },
      data: { captureFailedAt: options.now },
    });
    if (!count) return false;
    const checkout = await tx.checkout.findUniqueOrThrow({
      where: { id: options.checkoutId },
      select: { email: true, firstName: true, orderNumber: true, grandTotalCents: true },
    });
    const props: PaymentFailedProps = {
      firstName: checkout.firstName,
      orderNumber: checkout.orderNumber ?? options.checkoutId,
      grandTotal: formatCents(checkout.grandTotalCents),
    };
    await enqueueEmail(tx, {
      to: checkout.email,
      template: "payment-failed",
      props,
      dedupeKey: `payment-failed:${options.checkoutId}`,
    });
    console.error(
      `[payments] checkout ${options.checkoutId} (order ${checkout.orderNumber}): capture of ${options.paymentId} failed; the orders stand unpaid for the operator`,
    );
    return true;
  });
