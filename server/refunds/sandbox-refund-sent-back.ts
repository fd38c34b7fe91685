/**
 * The sandbox's bank sends back a refund that had succeeded (a closed card), as Stripe's does
 * (docs/adr/0140): the sandbox ledger's refund fails with the bank's code, then the same reader as
 * Stripe's webhook (`syncProcessorRefunds`) records it: the refund failed, the store's share paid
 * again, the person emailed, the partner's `order.refund_failed`. `ops sandbox:refund-sent-back`
 * calls it (sandbox only); only a refund that succeeded can be sent back.
 */
import { AppError } from "../core/errors";
import { inTransaction, type Db } from "../platform/db";
import { sqlTransaction } from "../platform/sql";
import { type PaymentProvider, sendBackLedgerRefund } from "../payments";
import { syncProcessorRefunds } from "./processor-refunds";
import { findRefundAtProcessor } from "./store";

export const sendRefundBackInSandbox = async (
  db: Db,
  provider: PaymentProvider,
  options: { refundId: string; reason: string; now: Date },
) => {
  const { refundId, reason, now } = options;
  const refund = await inTransaction(db, (tx) => findRefundAtProcessor(tx, refundId));
  if (!refund) throw new AppError("not_found", { message: `no refund ${refundId}` });
  if (refund.status !== "succeeded" || !refund.processorRefundId || !refund.processorPaymentId)
    throw new AppError("not_refundable", {
      message: `refund ${refundId} is ${refund.status}: only a refund that succeeded can be sent back`,
    });
  // A refund made at the processor over several orders is recorded as `<id>:<order>`.
  const atProcessor = refund.processorRefundId.split(":")[0];
  await sqlTransaction((sql) => sendBackLedgerRefund(sql, { id: atProcessor, reason, now }));
  await syncProcessorRefunds(db, provider, {
    processorPaymentId: refund.processorPaymentId,
    now,
  });
  const after = (await inTransaction(db, (tx) => findRefundAtProcessor(tx, refundId)))!;
  return { refundId, amountCents: refund.amountCents, status: after.status };
};
