/**
 * The sweep's part of refunds (`retry-refunds`): a refund left `pending` (the processor did not
 * answer, the process died between writing it and recording the answer, or the refund waits at
 * the bank). The processor's list of the payment's refunds is read first: a refund it made is
 * recorded as it stands there and never asked for again, since under a key the processor has
 * forgotten (Stripe keeps one a day) the ask would make a second. Only a refund it does not list
 * is asked for again, with its own key, and the answer recorded. Only refunds older than a minute:
 * a request still asking about a newer one records it itself.
 */
import { inTransaction, type Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { askProcessor, recordAnswer } from "./refund-order";
import { syncProcessorRefunds } from "./processor-refunds";
import { findDueRefunds, findRefund, lockOrderById } from "./store";

const inFlightMs = 60_000;

export const retryPendingRefunds = async (
  db: Db,
  options: { now: Date; provider: PaymentProvider; limit?: number },
) => {
  const { now, provider } = options;
  const due = await findDueRefunds(db, {
    now,
    olderThan: new Date(now.getTime() - inFlightMs),
    limit: options.limit ?? 50,
  });
  for (const refund of due) {
    const order = (await inTransaction(db, (tx) => lockOrderById(tx, refund.orderId)))!;
    if (order.processorPaymentId)
      await syncProcessorRefunds(db, provider, {
        processorPaymentId: order.processorPaymentId,
        now,
      });
    const current = (await findRefund(db, refund.id))!;
    if (current.status !== "pending") continue;
    if (!current.processorRefundId)
      await recordAnswer(db, refund.id, await askProcessor(provider, refund, order), now);
    // Made, but not in the processor's list (yet): looked at again later, never made again.
    else if (!current.nextAttemptAt || current.nextAttemptAt <= now)
      await recordAnswer(
        db,
        refund.id,
        { kind: "processing", processorRefundId: current.processorRefundId },
        now,
      );
  }
  return due.length;
};
