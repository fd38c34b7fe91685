/**
 * Payouts store: the `store_ledger_entries` table (docs/adr/0106). Prisma's tagged SQL on the
 * service's client: the sweep's statements run every few seconds over few rows.
 * Joins kept across owners (ADR 0103): finding captured payments whose orders have no ledger row
 * reads `payments` (payments), `orders` (checkout) and `stores` (catalogue) in one anti-join, and a
 * pending transfer reads its store's payout account and its payment's processor id with it; split,
 * each sweep would cost a statement per order.
 */
import { Prisma } from "../generated/prisma/client";
import { randomId } from "../core/ids";
import type { Db, Tx } from "../platform/db";
import type { OrderAmounts, StoreShare } from "./shares";

/** How far back the sweep looks for captures without ledger rows (a sweep down longer than this is an incident; the ledger of an older capture is written by hand). */
const lookBackMs = 7 * 24 * 3_600_000;

export type CapturedOrder = OrderAmounts & {
  orderId: string;
  paymentId: string;
  storeId: number;
  feeBps: number;
  capturedAt: Date;
};

const capturedOrderColumns = Prisma.sql`o.id AS "orderId", p.id AS "paymentId", o.store_id AS "storeId",
  o.subtotal_cents AS "subtotalCents", o.discount_cents AS "discountCents", o.shipping_cents AS "shippingCents",
  o.tax_cents AS "taxCents", s.platform_fee_bps AS "feeBps", COALESCE(p.captured_at, p.updated_at) AS "capturedAt"`;

/** Orders of payments captured lately that have no `sale` row yet, oldest first. */
export const findUnledgeredOrders = (db: Db, options: { now: Date; limit: number }) => {
  const since = new Date(options.now.getTime() - lookBackMs);
  const unledgered = Prisma.sql`p.status = 'captured' AND p.updated_at > ${since}
    AND NOT EXISTS (SELECT 1 FROM store_ledger_entries e WHERE e.order_id = o.id AND e.kind = 'sale')`;
  return db.$queryRaw<CapturedOrder[]>`
    SELECT * FROM (
      SELECT ${capturedOrderColumns} FROM payments p
        JOIN orders o ON o.checkout_id = p.checkout_id JOIN stores s ON s.id = o.store_id
        WHERE p.checkout_id IS NOT NULL AND ${unledgered}
      UNION ALL
      SELECT ${capturedOrderColumns} FROM payments p
        JOIN orders o ON o.purchase_id = p.purchase_id JOIN stores s ON s.id = o.store_id
        WHERE p.purchase_id IS NOT NULL AND ${unledgered}
    ) captured ORDER BY "capturedAt", "orderId" LIMIT ${options.limit}`;
};

/** Writes each order's `sale` row; one already written (another instance, a retry) is left as it is. */
export const insertSaleEntries = async (
  db: Db | Tx,
  entries: (StoreShare & Pick<CapturedOrder, "orderId" | "paymentId" | "storeId" | "capturedAt">)[],
) =>
  (
    await db.storeLedgerEntry.createMany({
      data: entries.map((entry) => ({
        id: randomId("led_"),
        kind: "sale",
        sourceId: entry.paymentId,
        ...entry,
      })),
      skipDuplicates: true,
    })
  ).count;

export type PendingTransfer = {
  id: string;
  kind: string;
  sourceId: string;
  paymentId: string;
  storeId: number;
  netCents: number;
  orderNumber: string;
  payoutAccount: string | null;
  processorPaymentId: string | null;
  transferGroup: string;
  transferAttempts: number;
};

/** `sale` rows (and `dispute_won`, `refund_failed`: shares given back) not yet transferred whose next try is due, oldest first. */
export const findDueTransfers = (db: Db, options: { now: Date; limit: number }) =>
  db.$queryRaw<PendingTransfer[]>`
    SELECT e.id, e.kind, e.source_id AS "sourceId", e.payment_id AS "paymentId", e.store_id AS "storeId", e.net_cents AS "netCents",
      o.number AS "orderNumber", s.payout_account AS "payoutAccount",
      p.processor_payment_id AS "processorPaymentId", COALESCE(p.checkout_id, p.purchase_id) AS "transferGroup",
      e.transfer_attempts AS "transferAttempts"
    FROM store_ledger_entries e
      JOIN orders o ON o.id = e.order_id JOIN stores s ON s.id = e.store_id JOIN payments p ON p.id = e.payment_id
    WHERE e.transfer_status = 'pending' AND e.kind IN ('sale', 'dispute_won', 'refund_failed')
      AND (e.next_transfer_at IS NULL OR e.next_transfer_at <= ${options.now})
    ORDER BY e.created_at LIMIT ${options.limit}`;

/** The transfer went through (or there was nothing to send: `transferId` null). */
export const recordTransferred = (
  db: Db,
  options: { id: string; transferId: string | null; now: Date },
) =>
  db.storeLedgerEntry.updateMany({
    where: { id: options.id, transferStatus: "pending" },
    data: {
      transferStatus: "transferred",
      transferId: options.transferId,
      transferReason: null,
      transferredAt: options.now,
      nextTransferAt: null,
    },
  });

/** The transfer did not go through: why, and when to try again. */
export const recordTransferWaiting = (
  db: Db,
  options: { id: string; reason: string; nextAt: Date },
) =>
  db.storeLedgerEntry.updateMany({
    where: { id: options.id, transferStatus: "pending" },
    data: {
      transferReason: options.reason.slice(0, 500),
      transferAttempts: { increment: 1 },
      nextTransferAt: options.nextAt,
    },
  });

/** A store's ledger rows captured in [from, to), in order, with their order numbers. */
export const readStatementRows = (db: Db, options: { storeId: number; from: Date; to: Date }) =>
  db.storeLedgerEntry.findMany({
    where: { storeId: options.storeId, capturedAt: { gte: options.from, lt: options.to } },
    orderBy: [{ capturedAt: "asc" }, { id: "asc" }],
    select: {
      kind: true,
      capturedAt: true,
      itemsCents: true,
      shippingCents: true,
      taxCents: true,
      feeCents: true,
      netCents: true,
      transferStatus: true,
      transferId: true,
      transferReason: true,
      order: { select: { number: true } },
    },
  });

export type StatementRow = Awaited<ReturnType<typeof readStatementRows>>[number];

const shareSelect = {
  id: true,
  itemsCents: true,
  shippingCents: true,
  taxCents: true,
  feeCents: true,
  netCents: true,
} as const;

/** An order's `sale` row (null until the sweep or a refund wrote it). */
export const findSaleEntry = (tx: Tx, orderId: string) =>
  tx.storeLedgerEntry.findFirst({ where: { orderId, kind: "sale" }, select: shareSelect });

/**
 * A row that takes from or gives back to a sale: a refund's or a dispute's (negative amounts, to be
 * reversed from the sale's transfer) or a won dispute's or a refund the bank sent back (positive,
 * to be transferred again).
 */
export const insertLedgerEntry = (
  tx: Tx,
  entry: StoreShare & {
    kind: "refund" | "dispute" | "dispute_won" | "refund_failed";
    sourceId: string;
    orderId: string;
    paymentId: string;
    storeId: number;
    at: Date;
  },
) =>
  tx.storeLedgerEntry.createMany({
    data: {
      id: randomId("led_"),
      kind: entry.kind,
      sourceId: entry.sourceId,
      orderId: entry.orderId,
      paymentId: entry.paymentId,
      storeId: entry.storeId,
      capturedAt: entry.at,
      itemsCents: entry.itemsCents,
      shippingCents: entry.shippingCents,
      taxCents: entry.taxCents,
      feeCents: entry.feeCents,
      netCents: entry.netCents,
    },
    skipDuplicates: true,
  });

/** The rows one refund or dispute wrote, of a kind. */
export const findLedgerEntries = (tx: Tx, options: { sourceId: string; kind: string }) =>
  tx.storeLedgerEntry.findMany({ where: options, orderBy: { orderId: "asc" } });

export type DueReversal = {
  id: string;
  /** The refund or dispute whose share it is. */
  refundId: string;
  storeId: number;
  netCents: number;
  transferAttempts: number;
  saleStatus: string | null;
  saleTransferId: string | null;
};

/** `refund` and `dispute` rows whose reversal is due, with their sale's transfer, oldest first. */
export const findDueReversals = (db: Db, options: { now: Date; limit: number }) =>
  db.$queryRaw<DueReversal[]>`
    SELECT e.id, e.source_id AS "refundId", e.store_id AS "storeId", e.net_cents AS "netCents", e.transfer_attempts AS "transferAttempts",
      sale.transfer_status AS "saleStatus", sale.transfer_id AS "saleTransferId"
    FROM store_ledger_entries e
      LEFT JOIN store_ledger_entries sale ON sale.order_id = e.order_id AND sale.kind = 'sale'
    WHERE e.kind IN ('refund', 'dispute') AND e.transfer_status = 'pending'
      AND (e.next_transfer_at IS NULL OR e.next_transfer_at <= ${options.now})
    ORDER BY e.created_at LIMIT ${options.limit}`;
