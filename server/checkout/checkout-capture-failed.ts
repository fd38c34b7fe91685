/**
 * A checkout whose paying attempt could not be captured (review H1): its orders were placed on a
 * hold the processor no longer has. The checkout is marked (capture_failed_at, which the operator's
 * `payment:capture-failed` listing reads with the payment's capture_failed status) and the shopper
 * is emailed, once, in the same transaction: nothing was charged and the orders do not ship.
 */
import type { PaymentFailedProps } from "../../emails/payment-failed";
import { type Db, inTransaction } from "../platform/db";
import { enqueueEmail } from "../platform/mail/outbox";
import { checkoutReader, provinceOf } from "./email-reader";
import { markCaptureFailed, readCheckoutNotice } from "./store/checkouts";
import { logger } from "../platform/observability/log";

/** Marks the checkout paid by `paymentId` as unpaid-for and tells the shopper; a no-op when already marked. */
export const markCheckoutCaptureFailed = async (
  db: Db,
  options: { checkoutId: string; paymentId: string; now: Date },
) =>
  inTransaction(db, async (tx) => {
    if (!(await markCaptureFailed(tx, options))) return false;
    const checkout = await readCheckoutNotice(tx, options.checkoutId);
    const props: PaymentFailedProps = {
      ...(await checkoutReader(tx, {
        buyerLanguage: checkout.buyerLanguage,
        personId: checkout.personId,
        province: provinceOf(checkout.quote.address),
      })),
      firstName: checkout.firstName,
      orderNumber: checkout.orderNumber ?? options.checkoutId,
      grandTotalCents: checkout.grandTotalCents,
    };
    await enqueueEmail(tx, {
      to: checkout.email,
      template: "payment-failed",
      props,
      dedupeKey: `payment-failed:${options.checkoutId}`,
    });
    logger.error(
      {
        checkout_id: options.checkoutId,
        order_number: checkout.orderNumber,
        payment_id: options.paymentId,
      },
      "payments: capture failed; the orders stand unpaid for the operator",
    );
    return true;
  });
