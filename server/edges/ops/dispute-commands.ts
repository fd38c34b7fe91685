/**
 * Disputes for the operator (docs/adr/0109):
 * - `order:list --disputed`: the open disputes, soonest evidence deadline first, with their orders
 *   and stores, the amount held back and what the processor says of them;
 * - `sandbox:dispute ORDER_NUMBER [--amount 12.34] [--reason fraudulent]` and
 *   `sandbox:dispute-close SBDP_ID --outcome won|lost` (sandbox only): the sandbox processor's
 *   cardholder and bank, each followed by what Stripe's webhook would cause (recordDispute).
 */
import { z } from "zod";
import { formatCents, parseCents } from "../../core/money";
import { ZAmountInput } from "../../core/money-input";
import { db, inTransaction } from "../../platform/db";
import { env } from "../../platform/env";
import { sqlTransaction } from "../../platform/sql";
import { closeLedgerDispute, openLedgerDispute, paymentProvider } from "../../payments";
import { listOpenDisputes, recordDispute } from "../../disputes";
import { refundableOrder } from "../../refunds";
import { fail } from "./commands";

export const listDisputedOrders = async () => ({
  disputes: (await inTransaction(db(), (tx) => listOpenDisputes(tx))).map((dispute) => ({
    dispute_id: dispute.id,
    processor_dispute_id: dispute.processorDisputeId,
    orders: dispute.orders,
    stores: dispute.stores,
    amount: formatCents(dispute.amountCents),
    reason: dispute.reason,
    status: dispute.status,
    evidence_due_by: dispute.evidenceDueBy?.toISOString() ?? null,
    opened_at: dispute.openedAt.toISOString(),
  })),
});

const sandboxOnly = () => {
  if (env().SERVICE_ENV !== "sandbox")
    fail("sandbox:dispute works only in the sandbox: production disputes come from Stripe");
};

export const openSandboxDispute = async (
  orderNumber: string | undefined,
  input: { amount?: string; reason?: string },
) => {
  sandboxOnly();
  if (!orderNumber) fail("usage: sandbox:dispute ORDER_NUMBER [--amount 12.34] [--reason R]");
  const order = (await refundableOrder(db(), orderNumber!)) ?? fail(`no order ${orderNumber}`);
  if (order.paymentStatus !== "captured" || !order.processorPaymentId)
    fail(`order ${orderNumber} has no captured payment to dispute`);
  const amount =
    input.amount === undefined
      ? order.grandTotalCents
      : parseCents(
          ZAmountInput.safeParse(input.amount).data ??
            fail("--amount must be an amount like 12.34"),
        );
  const dispute = await sqlTransaction((sql) =>
    openLedgerDispute(sql, {
      paymentId: order.processorPaymentId!,
      amountCents: amount,
      reason: input.reason ?? "fraudulent",
      now: new Date(),
    }),
  );
  const outcome = await recordDispute(db(), paymentProvider(), {
    processorDisputeId: dispute.id,
    now: new Date(),
  });
  return { processor_dispute_id: dispute.id, amount: formatCents(amount), outcome };
};

export const closeSandboxDispute = async (
  disputeId: string | undefined,
  input: { outcome?: string },
) => {
  sandboxOnly();
  if (!disputeId) fail("usage: sandbox:dispute-close SBDP_ID --outcome won|lost");
  const outcome = z.enum(["won", "lost"]).safeParse(input.outcome);
  if (!outcome.success) fail("--outcome must be won or lost");
  const closed = await sqlTransaction((sql) =>
    closeLedgerDispute(sql, { id: disputeId!, outcome: outcome.data!, now: new Date() }),
  );
  if (!closed) fail(`no open sandbox dispute ${disputeId}`);
  return {
    processor_dispute_id: disputeId,
    outcome: await recordDispute(db(), paymentProvider(), {
      processorDisputeId: disputeId!,
      now: new Date(),
    }),
  };
};
