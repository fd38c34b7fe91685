/**
 * The sweep's part of refunds (`retry-refunds`): a refund left `pending` (the processor did not
 * answer, or the process died between writing it and recording the answer) is asked again with
 * its own key, which replays the first answer or makes the refund once, and its answer recorded.
 * Only refunds older than a minute: a request still asking about a newer one records it itself.
 * A refund the processor made that waits at the bank is never asked for again (once its key is
 * forgotten, after a day, that would make a second one): its state is read from the processor's
 * list of the payment's refunds.
 */
import { inTransaction, type Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { askProcessor, recordAnswer } from "./refund-order";
import { syncProcessorRefunds } from "./processor-refunds";
import { findDueRefunds, lockOrderById } from "./store";

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
    if (refund.processorRefundId && order.processorPaymentId)
      await syncProcessorRefunds(db, provider, {
        processorPaymentId: order.processorPaymentId,
        now,
      });
    else await recordAnswer(db, refund.id, await askProcessor(provider, refund, order), now);
  }
  return due.length;
};
