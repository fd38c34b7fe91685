/**
 * The operator's refund commands (docs/adr/0107), through the refunds use cases:
 * - `order:refund ORDER_NUMBER [--amount 12.34] --reason "…"`: a store order, in full or in part;
 * - `purchase:refund PUR_ID [--amount 12.34] --reason "…"`: an assistant purchase's orders;
 * - `order:cancel ORDER_NUMBER --reason "…"`: the store cannot ship it: cancelled and refunded in full.
 * Each prints the refund as recorded: succeeded, pending (the processor did not answer: the sweep
 * asks again with the same key) or failed (refused: nothing given back).
 */
import { z } from "zod";
import { formatCents, parseCents } from "../../core/money";
import { db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import { refundOrder, refundPurchase, type RefundOutcome } from "../../refunds";
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
