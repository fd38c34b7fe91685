/**
 * A dispute as the processor reports it (docs/adr/0109), recorded once and kept up to date: its
 * state is asked of the processor (never read from the event), so a late, repeated or out-of-order
 * event is harmless.
 * - Opened: the disputed amount is spread over the payment's store orders, in order, each up to
 *   what refunds and other disputes left of it, and each store's share of it is held back: a
 *   `dispute` ledger row (as a refund's), reversed from the store's transfer by the payouts sweep.
 * - Won: the shares are the stores' again: `dispute_won` rows, transferred by the sweep.
 * - Lost: they stay back; the cardholder's bank has the money.
 */
import { inTransaction, type Db, type Tx } from "../platform/db";
import { findPaymentOfIntent, type PaymentProvider, type ProcessorDispute } from "../payments";
import {
  findLedgerEntries,
  findSaleEntry,
  insertLedgerEntry,
  insertSaleEntries,
  storeShare,
} from "../payouts";
import { refundShare } from "../refunds";
import {
  type DisputedOrder,
  insertDispute,
  lockDispute,
  lockOrdersOfPayment,
  updateDispute,
} from "./store";

const closedStatuses = new Set(["won", "lost", "warning_closed"]);

export const recordDispute = async (
  db: Db,
  provider: PaymentProvider,
  options: { processorDisputeId: string; now: Date },
): Promise<string> => {
  const { now } = options;
  const seen = await provider.retrieveDispute({ disputeId: options.processorDisputeId });
  if (!seen) return "not_ours";
  const payment = await findPaymentOfIntent(db, { paymentIntentId: seen.paymentId, owner: null });
  if (!payment || payment.status !== "captured") return "not_ours";
  return inTransaction(db, async (tx) => {
    const known = await lockDispute(tx, seen.id);
    const isClosing = closedStatuses.has(seen.status) && !known?.closedAt;
    const id = known?.id ?? (await insertDispute(tx, { ...seen, paymentId: payment.id, now }));
    if (!known) await holdBack(tx, { disputeId: id, paymentId: payment.id, dispute: seen, now });
    await updateDispute(tx, {
      id,
      status: seen.status,
      evidenceDueBy: seen.evidenceDueBy,
      closedAt: known?.closedAt ?? (isClosing ? now : null),
      now,
    });
    if (isClosing && seen.status === "won") await giveBack(tx, { disputeId: id, now });
    return known ? (isClosing ? `dispute_${seen.status}` : "dispute_updated") : "dispute_opened";
  });
};

/** The stores' shares of the disputed amount held back, order by order. */
const holdBack = async (
  tx: Tx,
  options: { disputeId: string; paymentId: string; dispute: ProcessorDispute; now: Date },
) => {
  let left = options.dispute.amountCents;
  for (const order of await lockOrdersOfPayment(tx, options.paymentId)) {
    const amountCents = Math.min(left, order.grandTotalCents - order.takenCents);
    if (amountCents <= 0) continue;
    const sale = await saleOf(tx, order, options);
    await insertLedgerEntry(tx, {
      kind: "dispute",
      sourceId: options.disputeId,
      orderId: order.id,
      paymentId: options.paymentId,
      storeId: order.storeId,
      at: options.now,
      ...refundShare(sale, { refundedBeforeCents: order.takenCents, amountCents }),
    });
    left -= amountCents;
    if (left === 0) break;
  }
};

/** A won dispute: each held-back share paid to its store again (the negation of its `dispute` row). */
const giveBack = async (tx: Tx, options: { disputeId: string; now: Date }) => {
  for (const row of await findLedgerEntries(tx, { sourceId: options.disputeId, kind: "dispute" }))
    await insertLedgerEntry(tx, {
      kind: "dispute_won",
      sourceId: options.disputeId,
      orderId: row.orderId,
      paymentId: row.paymentId,
      storeId: row.storeId,
      at: options.now,
      itemsCents: 0 - row.itemsCents,
      shippingCents: 0 - row.shippingCents,
      taxCents: 0 - row.taxCents,
      feeCents: 0 - row.feeCents,
      netCents: 0 - row.netCents,
    });
};

/** The order's sale row, written first if the sweep has not yet (a dispute is a share of it). */
const saleOf = async (tx: Tx, order: DisputedOrder, options: { paymentId: string; now: Date }) => {
  await insertSaleEntries(tx, [
    {
      orderId: order.id,
      paymentId: options.paymentId,
      storeId: order.storeId,
      capturedAt: options.now,
      ...storeShare(order, order.feeBps),
    },
  ]);
  return (await findSaleEntry(tx, order.id))!;
};
