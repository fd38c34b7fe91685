/**
 * What the processor says of a payment's refunds, recorded (its `charge.refunded` and refund
 * webhooks; the sweep for a refund waiting at the bank). The refunds are listed from the processor,
 * never read from an event, so a late, repeated or out-of-order event changes nothing twice:
 * - ours still pending (waiting at the bank, or whose answer was lost): recorded as it now stands;
 * - one recorded as succeeded that the bank has since failed: undone (recordRefundFailedAtBank);
 * - one made in the processor's dashboard that succeeded and is not known: recorded the same way
 *   as ours, once, against the payment's store orders, in order, each up to what is left of it.
 */
import { inTransaction, type Db } from "../platform/db";
import type { PaymentProvider, ProcessorRefund } from "../payments";
import { answerOfRefund, recordAnswer, recordRefunded } from "./refund-order";
import { recordRefundFailedAtBank } from "./refund-failed-at-bank";
import {
  findOrdersOfPayment,
  findRefundsOfProcessorRefund,
  insertRefund,
  lockOrderById,
  markRefundSucceeded,
} from "./store";

/** The number of refunds whose record changed (settled, failed or recorded; one still at the bank is not). */
export const syncProcessorRefunds = async (
  db: Db,
  provider: PaymentProvider,
  options: { processorPaymentId: string; now: Date },
) => {
  const { processorPaymentId, now } = options;
  let changed = 0;
  for (const made of await provider.listRefunds({ paymentId: processorPaymentId })) {
    const rows = await findRefundsOfProcessorRefund(db, made);
    if (!rows.length) {
      if (made.status === "succeeded" && !made.metadata.refund)
        changed += await recordDashboardRefund(db, { processorPaymentId, made, now });
      continue;
    }
    for (const row of rows) {
      if (row.status === "pending") {
        const after = await recordAnswer(db, row.id, answerOfRefund(made), now);
        if (after.refund.status !== "pending") changed++;
      } else if (row.status === "succeeded" && made.status === "failed") {
        const isUndone = await recordRefundFailedAtBank(db, {
          refundId: row.id,
          failureReason: made.failureReason,
          now,
        });
        if (isUndone) changed++;
      }
    }
  }
  return changed;
};

/** A refund made in the processor's dashboard, recorded against the payment's orders; 0 when another run recorded it first. */
const recordDashboardRefund = (
  db: Db,
  options: { processorPaymentId: string; made: ProcessorRefund; now: Date },
) =>
  inTransaction(db, async (tx) => {
    const { processorPaymentId, made, now } = options;
    if ((await findRefundsOfProcessorRefund(tx, made)).length) return 0;
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
    return 1;
  });
