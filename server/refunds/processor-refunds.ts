/**
 * Refunds made at the processor (in Stripe's dashboard), learnt from its `charge.refunded` webhook:
 * the payment's refunds are listed from the processor (never read from the event), and each one
 * that is not ours (no refund of ours has its id) is recorded the same way as ours, once: against
 * the payment's store orders, in order, each up to what is left of it.
 */
import { inTransaction, type Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { recordRefunded } from "./refund-order";
import {
  findOrdersOfPayment,
  insertRefund,
  isKnownProcessorRefund,
  lockOrderById,
  markRefundSucceeded,
} from "./store";

export const recordProcessorRefunds = async (
  db: Db,
  provider: PaymentProvider,
  options: { processorPaymentId: string; now: Date },
) => {
  const { processorPaymentId, now } = options;
  const listed = await provider.listRefunds({ paymentId: processorPaymentId });
  let recorded = 0;
  for (const made of listed.filter((refund) => refund.status === "succeeded")) {
    const isRecorded = await inTransaction(db, async (tx) => {
      // Ours (metadata.refund) are recorded by the refund's own steps; one recorded before is done.
      if (made.metadata.refund || (await isKnownProcessorRefund(tx, made.id))) return false;
      const orders = await findOrdersOfPayment(tx, processorPaymentId);
      let left = made.amountCents;
      for (const { id } of orders) {
        if (left === 0) break;
        const order = (await lockOrderById(tx, id))!;
        const amountCents = Math.min(left, order.grandTotalCents - order.refundedCents);
        if (amountCents <= 0 || !order.paymentId) continue;
        const refund = await insertRefund(tx, {
          orderId: order.id,
          paymentId: order.paymentId,
          amountCents,
          reason: "Refunded at the payment processor",
          source: "processor",
          now,
        });
        // One processor refund may cover several orders: the first row keeps its id, the others it and their order.
        await markRefundSucceeded(tx, {
          id: refund.id,
          processorRefundId: left === made.amountCents ? made.id : `${made.id}:${order.number}`,
          now,
        });
        await recordRefunded(tx, { refund, order, now });
        left -= amountCents;
      }
      return true;
    });
    if (isRecorded) recorded++;
  }
  return recorded;
};
