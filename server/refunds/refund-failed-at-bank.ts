/**
 * A refund recorded as succeeded that the bank sent back (a closed or lost card: Stripe moves the
 * refund from `succeeded` to `failed` and the money returns to the platform's balance, days later;
 * docs/adr/0140). Undone in one transaction, once:
 * - the refund `failed` (with `failed_at`): the order's refunded amount drops by it, and what the
 *   person is owed can be refunded again by other means;
 * - the store's share given back: a `refund_failed` ledger row, the opposite of the refund's, paid
 *   to the store by the payouts sweep as a won dispute's is (its reversal took the share back);
 * - the person told that the money did not reach them and that the store will pay it another way;
 *   the partner hears `order.refund_failed`; the operator reads it in the logs and the metric.
 * The purchase is not moved back from `refunded`: the reference's states end there, and the
 * refund owed still stands (the order's view shows what went back).
 */
import { inTransaction, type Db } from "../platform/db";
import { enqueueEmail } from "../platform/mail/outbox";
import { logger } from "../platform/observability/log";
import { count } from "../platform/observability/metrics";
import type { RefundFailedProps } from "../../emails/refund-failed";
import { findLedgerEntries, insertLedgerEntry } from "../payouts";
import { recordRefundEvent, refundEmailBase } from "./refund-order";
import { findRefund, lockOrderById, markRefundFailed } from "./store";

export const recordRefundFailedAtBank = (
  db: Db,
  options: { refundId: string; failureReason: string | null; now: Date },
) =>
  inTransaction(db, async (tx) => {
    const { refundId, now } = options;
    const refund = (await findRefund(tx, refundId))!;
    const order = (await lockOrderById(tx, refund.orderId))!;
    const failureReason = options.failureReason ?? "unknown";
    const isFirst = await markRefundFailed(tx, {
      id: refundId,
      // The bank's code alone (`expired_or_canceled_card`): the row's succeeded_at and failed_at say
      // it was sent back, and the person's pages word the code (refundSentBackReasonKey).
      reason: failureReason,
      now,
      from: "succeeded",
    });
    if (!isFirst) return false;
    for (const entry of await findLedgerEntries(tx, { sourceId: refund.id, kind: "refund" }))
      await insertLedgerEntry(tx, {
        kind: "refund_failed",
        sourceId: refund.id,
        itemsCents: -entry.itemsCents,
        shippingCents: -entry.shippingCents,
        taxCents: -entry.taxCents,
        feeCents: -entry.feeCents,
        netCents: -entry.netCents,
        orderId: entry.orderId,
        paymentId: entry.paymentId,
        storeId: entry.storeId,
        at: now,
      });
    // The order's refunds before this one failed (lockOrderById counted it as succeeded).
    const refundedCents = order.succeededCents - refund.amountCents;
    const props: RefundFailedProps = {
      ...(await refundEmailBase(tx, order)),
      amountCents: refund.amountCents,
      failureReason,
    };
    await enqueueEmail(tx, {
      to: order.email,
      template: "refund-failed",
      props,
      dedupeKey: `refund-failed:${refund.id}`,
    });
    await recordRefundEvent(tx, {
      type: "order.refund_failed",
      order,
      refund,
      refundedCents,
      now,
      refundFields: { failure_reason: failureReason },
    });
    count("shopping_refunds_total", { outcome: "failed_at_bank" });
    logger.error(
      {
        refund_id: refund.id,
        order_number: order.number,
        amount_cents: refund.amountCents,
        failure_reason: failureReason,
      },
      "refunds: the bank sent a refund back; the person is owed it by other means",
    );
    return true;
  });
