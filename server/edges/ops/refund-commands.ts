/**
 * The operator's refund commands (docs/adr/0107), through the refunds use cases:
 * - `order:refund ORDER_NUMBER [--amount 12.34] --reason "…"`: a store order, in full or in part;
 * - `purchase:refund PUR_ID [--amount 12.34] --reason "…"`: an assistant purchase's orders;
 * - `order:cancel ORDER_NUMBER --reason "…"`: the store cannot ship it: cancelled and refunded in full.
 * - `order:list --refund-sent-back`: refunds the bank sent back after they succeeded (a closed card):
 *   the person is owed each, to pay back another way (docs/adr/0140).
 * - `sandbox:refund-sent-back REFUND_ID [--reason expired_or_canceled_card]` (sandbox only): the
 *   sandbox's bank sends a refund back, then what Stripe's webhook would cause follows
 *   (syncProcessorRefunds), so a partner sees `order.refund_failed` and the person its email and page.
 * Each refund prints as recorded: succeeded, pending (the processor did not answer, or the refund
 * waits at the bank: the sweep settles it) or failed (refused, or sent back: nothing reached the card).
 */
import { z } from "zod";
import { formatCents, parseCents } from "../../core/money";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { paymentProvider } from "../../payments";
import { inTransaction } from "../../platform/db";
import { refundSentBackReasons } from "../../core/messages";
import {
  listRefundsSentBack,
  sendRefundBackInSandbox,
  refundOrder,
  refundPurchase,
  type RefundOutcome,
} from "../../refunds";
import { ZAmountInput } from "../../core/money-input";
import { fail } from "./commands";

const ZReason = z
  .string({ error: "--reason is required (what the person is told)" })
  .trim()
  .min(3, "--reason is required (what the person is told)")
  .max(500, "--reason must be at most 500 characters");

const parsed = <T>(schema: z.ZodType<T>, value: unknown, flag = ""): T => {
  const result = schema.safeParse(value);
  return result.success ? result.data : fail(`${flag}${result.error.issues[0].message}`);
};

const amountOf = (amount: string | undefined) =>
  amount === undefined ? undefined : parseCents(parsed(ZAmountInput, amount, "--amount "));

const shown = (outcome: RefundOutcome) => ({
  refund_id: outcome.refund.id,
  order_number: outcome.orderNumber,
  amount: formatCents(outcome.refund.amountCents),
  status: outcome.refund.status,
  ...(outcome.refund.failureReason ? { reason: outcome.refund.failureReason } : {}),
  refunded: formatCents(outcome.refundedCents),
  order_total: formatCents(outcome.orderTotalCents),
});

export const listRefundsSentBackCommand = async () => ({
  refunds_sent_back: (await inTransaction(db(), (tx) => listRefundsSentBack(tx))).map((row) => ({
    refund_id: row.refundId,
    order_number: row.orderNumber,
    email: row.email,
    amount: formatCents(row.amountCents),
    reason: row.failureReason,
    succeeded_at: row.succeededAt.toISOString(),
    sent_back_at: row.failedAt.toISOString(),
  })),
});

export const refundOrderCommand = async (
  orderNumber: string | undefined,
  input: { amount?: string; reason?: string },
) => {
  if (!orderNumber) fail('usage: order:refund ORDER_NUMBER [--amount 12.34] --reason "…"');
  const outcome = await refundOrder(db(), paymentProvider(), {
    orderNumber: orderNumber!,
    amountCents: amountOf(input.amount),
    reason: parsed(ZReason, input.reason),
    source: "operator",
    now: new Date(),
  });
  return shown(outcome);
};

export const cancelOrderCommand = async (
  orderNumber: string | undefined,
  input: { reason?: string },
) => {
  if (!orderNumber) fail('usage: order:cancel ORDER_NUMBER --reason "…"');
  const outcome = await refundOrder(db(), paymentProvider(), {
    orderNumber: orderNumber!,
    reason: parsed(ZReason, input.reason),
    source: "store_cancelled",
    now: new Date(),
  });
  return { cancelled: true, ...shown(outcome) };
};

export const refundPurchaseCommand = async (
  purchaseId: string | undefined,
  input: { amount?: string; reason?: string },
) => {
  if (!purchaseId) fail('usage: purchase:refund PUR_ID [--amount 12.34] --reason "…"');
  const outcomes = await refundPurchase(db(), paymentProvider(), {
    purchaseId: purchaseId!,
    amountCents: amountOf(input.amount),
    reason: parsed(ZReason, input.reason),
    now: new Date(),
  });
  return { purchase_id: purchaseId, refunds: outcomes.map(shown) };
};

export const sendBackSandboxRefund = async (
  refundId: string | undefined,
  input: { reason?: string },
) => {
  if (env().SERVICE_ENV !== "sandbox")
    fail("sandbox:refund-sent-back works only in the sandbox: a bank's answer comes from Stripe");
  if (!refundId) fail("usage: sandbox:refund-sent-back REFUND_ID [--reason R]");
  const reason = z
    .enum(refundSentBackReasons)
    .safeParse(input.reason ?? "expired_or_canceled_card");
  if (!reason.success) fail(`--reason must be one of ${refundSentBackReasons.join(", ")}`);
  const sent = await sendRefundBackInSandbox(db(), paymentProvider(), {
    refundId: refundId!,
    reason: reason.data!,
    now: new Date(),
  });
  return {
    refund_id: sent.refundId,
    amount: formatCents(sent.amountCents),
    status: sent.status,
    reason: reason.data,
  };
};
