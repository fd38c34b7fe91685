/**
 * Disputes store: the `disputes` table (docs/adr/0109).
 * Joins kept across owners (ADR 0103): a dispute's orders are read with their store's fee, their
 * refunds and earlier holds under each order's row lock (`orders`, `stores`, `refunds`,
 * `store_ledger_entries`), as a refund's are: what is left of an order must be read under the lock
 * that serialises what takes from it.
 */
import { randomId } from "../core/ids";
import type { Tx } from "../platform/db";
import type { ProcessorDispute } from "../payments";

export const lockDispute = async (tx: Tx, processorDisputeId: string) =>
  (
    await tx.$queryRaw<{ id: string; status: string; closedAt: Date | null }[]>`
    SELECT id, status, closed_at AS "closedAt" FROM disputes WHERE processor_dispute_id = ${processorDisputeId} FOR UPDATE`
  )[0];

export const insertDispute = async (
  tx: Tx,
  dispute: ProcessorDispute & { paymentId: string; now: Date },
) =>
  (
    await tx.dispute.create({
      data: {
        id: randomId("dsp_"),
        processorDisputeId: dispute.id,
        paymentId: dispute.paymentId,
        amountCents: dispute.amountCents,
        reason: dispute.reason.slice(0, 200),
        status: dispute.status,
        evidenceDueBy: dispute.evidenceDueBy,
        openedAt: dispute.now,
        updatedAt: dispute.now,
      },
    })
  ).id;

export const updateDispute = (
  tx: Tx,
  options: {
    id: string;
    status: string;
    evidenceDueBy: Date | null;
    closedAt: Date | null;
    now: Date;
  },
) =>
  tx.dispute.update({
    where: { id: options.id },
    data: {
      status: options.status,
      evidenceDueBy: options.evidenceDueBy,
      closedAt: options.closedAt,
      updatedAt: options.now,
    },
  });

export type DisputedOrder = {
  id: string;
  number: string;
  storeId: number;
  feeBps: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  /** Refunded (succeeded) and held back by other disputes, the order's amounts already taken. */
  takenCents: number;
};

/** The orders a payment paid, in order, each locked, with what refunds and holds already took. */
export const lockOrdersOfPayment = (tx: Tx, paymentId: string) =>
  tx.$queryRaw<DisputedOrder[]>`
    SELECT o.id, o.number, o.store_id AS "storeId", s.platform_fee_bps AS "feeBps",
      o.subtotal_cents AS "subtotalCents", o.discount_cents AS "discountCents", o.shipping_cents AS "shippingCents",
      o.tax_cents AS "taxCents", o.grand_total_cents AS "grandTotalCents",
      (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM refunds r WHERE r.order_id = o.id AND r.status = 'succeeded')
      + (SELECT COALESCE(-sum(e.items_cents + e.shipping_cents + e.tax_cents), 0)::int FROM store_ledger_entries e
          WHERE e.order_id = o.id AND e.kind IN ('dispute', 'dispute_won')) AS "takenCents"
    FROM payments p
      LEFT JOIN checkouts c ON c.paid_payment_id = p.id
      JOIN orders o ON o.checkout_id = c.id OR (p.purchase_id IS NOT NULL AND o.purchase_id = p.purchase_id)
      JOIN stores s ON s.id = o.store_id
    WHERE p.id = ${paymentId}
    ORDER BY o.number FOR UPDATE OF o`;

/** Open disputes with their orders, oldest evidence deadline first, for the operator. */
export const listOpenDisputes = (tx: Tx) =>
  tx.$queryRaw<
    {
      id: string;
      processorDisputeId: string;
      amountCents: number;
      reason: string;
      status: string;
      evidenceDueBy: Date | null;
      openedAt: Date;
      orders: string[];
      stores: string[];
    }[]
  >`
    SELECT d.id, d.processor_dispute_id AS "processorDisputeId", d.amount_cents AS "amountCents", d.reason, d.status,
      d.evidence_due_by AS "evidenceDueBy", d.opened_at AS "openedAt",
      array_agg(DISTINCT o.number) AS orders, array_agg(DISTINCT s.name) AS stores
    FROM disputes d
      JOIN store_ledger_entries e ON e.source_id = d.id AND e.kind = 'dispute'
      JOIN orders o ON o.id = e.order_id JOIN stores s ON s.id = o.store_id
    WHERE d.closed_at IS NULL
    GROUP BY d.id ORDER BY d.evidence_due_by NULLS LAST, d.opened_at`;
