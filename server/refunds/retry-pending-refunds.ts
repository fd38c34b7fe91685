/**
 * The sweep's part of refunds (`retry-refunds`): a refund left `pending` (the processor did not
 * answer, or the process died between writing it and recording the answer) is asked again with
 * its own key, which replays the first answer or makes the refund once, and its answer recorded.
 * Only refunds older than a minute: a request still asking about a newer one records it itself.
 * The processor's list of the payment's refunds is read first: a refund it made (one waiting at
 * the bank, or one whose answer was lost) is recorded as it stands there and never asked for
 * again, since a key the processor has forgotten (Stripe keeps one a day) would make a second.
 * Only a refund the processor does not list is asked for, with its key.
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
    if (current.status === "pending" && !current.processorRefundId)
      await recordAnswer(db, refund.id, await askProcessor(provider, refund, order), now);
  }
  return due.length;
};
