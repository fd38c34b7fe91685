/**
 * Refunds store: the `refunds` table (docs/adr/0107). Prisma's tagged SQL in the use case's Prisma
 * transaction.
 * Joins kept across owners (ADR 0103): a refund locks its store order (`orders`, checkout's) and
 * reads, in the same statement, the payment that paid it (`payments`), the store's name and fee
 * (`stores`) and the owner's client and purchase (`checkouts`, `purchases`): two refunds of one
 * order must be serialised on one row, and what they check must be read under that lock.
 */
import { Prisma } from "../generated/prisma/client";
import { randomId } from "../core/ids";
import type { Tx } from "../platform/db";

export type RefundableOrder = {
  id: string;
  number: string;
  storeId: number;
  storeName: string;
  feeBps: number;
  email: string;
  personId: string | null;
  clientId: string;
  checkoutId: string | null;
  purchaseId: string | null;
  purchaseStatus: string | null;
  fulfilment: string;
  cancelledAt: Date | null;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  paymentId: string | null;
  paymentStatus: string | null;
  processorPaymentId: string | null;
  cardLast4: string | null;
  /** The quote the order was bought from (its store's lines name the items). */
  snapshot: unknown;
  /** Refunds of the order not failed: succeeded, or still being asked. */
  refundedCents: number;
  /** Refunds of the order that went through. */
  succeededCents: number;
};

const orderColumns = Prisma.sql`o.id, o.number, o.store_id AS "storeId", s.name AS "storeName", s.platform_fee_bps AS "feeBps",
  o.email, o.person_id AS "personId", COALESCE(c.client_id, pu.client_id) AS "clientId",
  o.checkout_id AS "checkoutId", o.purchase_id AS "purchaseId", pu.status::text AS "purchaseStatus",
  o.fulfilment::text AS fulfilment, o.cancelled_at AS "cancelledAt",
  o.subtotal_cents AS "subtotalCents", o.discount_cents AS "discountCents", o.shipping_cents AS "shippingCents",
  o.tax_cents AS "taxCents", o.grand_total_cents AS "grandTotalCents",
  p.id AS "paymentId", p.status::text AS "paymentStatus", p.processor_payment_id AS "processorPaymentId",
  p.card_last4 AS "cardLast4",
  (SELECT q.snapshot FROM quotes q WHERE q.id = COALESCE(c.quote_id, pu.quote_id)) AS snapshot,
  (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM refunds r WHERE r.order_id = o.id AND r.status <> 'failed') AS "refundedCents",
  (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM refunds r WHERE r.order_id = o.id AND r.status = 'succeeded') AS "succeededCents"`;

const orderJoins = Prisma.sql`orders o JOIN stores s ON s.id = o.store_id
  LEFT JOIN checkouts c ON c.id = o.checkout_id
  LEFT JOIN purchases pu ON pu.id = o.purchase_id
  LEFT JOIN payments p ON p.id = c.paid_payment_id OR (o.purchase_id IS NOT NULL AND p.purchase_id = o.purchase_id)`;

/** The order by its number, its row locked until the transaction ends. */
export const lockOrderByNumber = async (tx: Tx, number: string) =>
  (
    await tx.$queryRaw<RefundableOrder[]>`
    SELECT ${orderColumns} FROM ${orderJoins} WHERE o.number = ${number} FOR UPDATE OF o`
  )[0];

/** The order of a refund, its row locked (a refund being recorded). */
export const lockOrderById = async (tx: Tx, id: string) =>
  (
    await tx.$queryRaw<RefundableOrder[]>`
    SELECT ${orderColumns} FROM ${orderJoins} WHERE o.id = ${id} FOR UPDATE OF o`
  )[0];

/** A purchase's orders by number (a purchase refunded whole is refunded order by order). */
export const findPurchaseOrderNumbers = async (tx: Tx, purchaseId: string) =>
  (
    await tx.$queryRaw<{ number: string }[]>`
    SELECT number FROM orders WHERE purchase_id = ${purchaseId} ORDER BY number`
  ).map((row) => row.number);

/** Refunded so far of all a purchase's orders (succeeded only): a purchase refunded in full moves to refunded. */
export const purchaseRefundTotals = async (tx: Tx, purchaseId: string) =>
  (
    await tx.$queryRaw<{ paidCents: number; refundedCents: number }[]>`
    SELECT COALESCE(sum(o.grand_total_cents), 0)::int AS "paidCents",
      (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM refunds r JOIN orders ro ON ro.id = r.order_id
        WHERE ro.purchase_id = ${purchaseId} AND r.status = 'succeeded') AS "refundedCents"
    FROM orders o WHERE o.purchase_id = ${purchaseId}`
  )[0];

export type RefundRow = Prisma.RefundGetPayload<object>;

export const insertRefund = (
  tx: Tx,
  refund: {
    orderId: string;
    paymentId: string;
    amountCents: number;
    reason: string;
    source: "operator" | "store_cancelled" | "processor";
    now: Date;
  },
) =>
  tx.refund.create({
    data: {
      id: randomId("ref_"),
      orderId: refund.orderId,
      paymentId: refund.paymentId,
      amountCents: refund.amountCents,
      reason: refund.reason.slice(0, 500),
      source: refund.source,
      createdAt: refund.now,
    },
  });

export const findRefund = (tx: Tx, id: string) => tx.refund.findUnique({ where: { id } });

/** A refund with its payment's id at the processor (the sandbox's bank sending it back), or undefined. */
export const findRefundAtProcessor = async (tx: Tx, id: string) =>
  (
    await tx.$queryRaw<
      {
        id: string;
        status: string;
        amountCents: number;
        processorRefundId: string | null;
        processorPaymentId: string | null;
      }[]
    >`
      SELECT r.id, r.status, r.amount_cents AS "amountCents", r.processor_refund_id AS "processorRefundId",
        p.processor_payment_id AS "processorPaymentId"
      FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE r.id = ${id}`
  )[0];

/**
 * Our rows of a processor's refund: ours by its metadata's id, else those recorded from it (one
 * made in its dashboard over several orders is one row an order, `<id>` then `<id>:<order>`).
 */
export const findRefundsOfProcessorRefund = (
  tx: Tx,
  made: { id: string; metadata: Record<string, string> },
) =>
  tx.refund.findMany({
    where: made.metadata.refund
      ? { id: made.metadata.refund }
      : {
          OR: [
            { processorRefundId: made.id },
            { processorRefundId: { startsWith: `${made.id}:` } },
          ],
        },
    orderBy: { createdAt: "asc" },
  });

/** pending -> succeeded, once: false when another run recorded it first. */
export const markRefundSucceeded = async (
  tx: Tx,
  options: { id: string; processorRefundId: string; now: Date },
) =>
  (
    await tx.refund.updateMany({
      where: { id: options.id, status: "pending" },
      data: {
        status: "succeeded",
        processorRefundId: options.processorRefundId,
        succeededAt: options.now,
        failureReason: null,
        nextAttemptAt: null,
      },
    })
  ).count === 1;

/** The processor did not answer: asked again later with the same key. */
export const markRefundWaiting = (tx: Tx, options: { id: string; reason: string; nextAt: Date }) =>
  tx.refund.updateMany({
    where: { id: options.id, status: "pending" },
    data: {
      failureReason: options.reason.slice(0, 500),
      attempts: { increment: 1 },
      nextAttemptAt: options.nextAt,
    },
  });

/** The processor made the refund, but it waits at the bank: its state is asked again later (by the refund's id, not made again). */
export const markRefundProcessing = (
  tx: Tx,
  options: { id: string; processorRefundId: string; nextAt: Date },
) =>
  tx.refund.updateMany({
    where: { id: options.id, status: "pending" },
    data: {
      processorRefundId: options.processorRefundId,
      failureReason: "processing at the bank",
      attempts: { increment: 1 },
      nextAttemptAt: options.nextAt,
    },
  });

/**
 * The processor refused, or the bank failed the refund: nothing was given back, and the amount is
 * free to refund again. `from` succeeded: the bank sent back a refund already recorded; false when
 * another run recorded it first.
 */
export const markRefundFailed = async (
  tx: Tx,
  options: { id: string; reason: string; now: Date; from?: "pending" | "succeeded" },
) =>
  (
    await tx.refund.updateMany({
      where: { id: options.id, status: options.from ?? "pending" },
      data: {
        status: "failed",
        failureReason: options.reason.slice(0, 500),
        failedAt: options.now,
        nextAttemptAt: null,
      },
    })
  ).count === 1;

/** Refunds left pending whose next try is due (a crash after the row, or no answer), oldest first; not those a request is still asking about. */
export const findDueRefunds = (tx: Tx, options: { now: Date; olderThan: Date; limit: number }) =>
  tx.refund.findMany({
    where: {
      status: "pending",
      createdAt: { lt: options.olderThan },
      OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: options.now } }],
    },
    orderBy: { createdAt: "asc" },
    take: options.limit,
  });

/** Refunds the bank sent back after they succeeded, newest first: what the operator pays back another way (docs/adr/0140). */
export const listRefundsSentBack = (tx: Tx) =>
  tx.$queryRaw<
    {
      refundId: string;
      orderNumber: string;
      email: string;
      amountCents: number;
      failureReason: string | null;
      succeededAt: Date;
      failedAt: Date;
    }[]
  >`
    SELECT r.id AS "refundId", o.number AS "orderNumber", o.email, r.amount_cents AS "amountCents",
      r.failure_reason AS "failureReason", r.succeeded_at AS "succeededAt", r.failed_at AS "failedAt"
    FROM refunds r JOIN orders o ON o.id = r.order_id
    WHERE r.status = 'failed' AND r.succeeded_at IS NOT NULL
    ORDER BY r.failed_at DESC LIMIT 500`;

/** Marks the order cancelled by its store; false when it already was. */
export const markOrderCancelled = async (
  tx: Tx,
  options: { id: string; reason: string; now: Date },
) =>
  (await tx.$executeRaw`
    UPDATE orders SET cancelled_at = ${options.now}, cancel_reason = ${options.reason.slice(0, 500)}
    WHERE id = ${options.id} AND cancelled_at IS NULL`) === 1;

/** An order's refunds, oldest first, for GET /me/orders and the dashboard. */
export const listOrderRefunds = (tx: Tx, orderIds: string[]) =>
  tx.refund.findMany({
    where: { orderId: { in: orderIds }, status: "succeeded" },
    orderBy: { createdAt: "asc" },
    select: { orderId: true, amountCents: true, succeededAt: true, reason: true },
  });

/** The store orders a processor payment paid, in order (a processor's refund is recorded against them). */
export const findOrdersOfPayment = (tx: Tx, processorPaymentId: string) =>
  tx.$queryRaw<{ id: string }[]>`
    SELECT o.id FROM payments p
      LEFT JOIN checkouts c ON c.paid_payment_id = p.id
      JOIN orders o ON o.checkout_id = c.id OR (p.purchase_id IS NOT NULL AND o.purchase_id = p.purchase_id)
    WHERE p.processor_payment_id = ${processorPaymentId} AND p.status = 'captured'
    ORDER BY o.number`;

/** An order by its number with its payment, unlocked (the sandbox's dispute command). */
export const findOrderByNumber = async (tx: Tx, number: string) =>
  (
    await tx.$queryRaw<
      RefundableOrder[]
    >`SELECT ${orderColumns} FROM ${orderJoins} WHERE o.number = ${number}`
  )[0];

/**
 * Where each purchase's refunds stand, as the person is told (the dashboard, the cancel page):
 * `returnedCents` went back to the card; `onItsWayCents` is being made or waits at the bank;
 * `sentBack` is what the bank sent back after it had succeeded (docs/adr/0140: the money is still
 * the person's, and they were emailed). A refund the processor refused outright gave nothing back
 * and is the operator's to redo: it is not shown.
 */
export type PurchaseRefunds = {
  returnedCents: number;
  onItsWayCents: number;
  sentBack: { cents: number; at: Date; reason: string | null } | null;
};

export const refundsOfPurchases = async (tx: Tx, purchaseIds: string[]) => {
  const rows = purchaseIds.length
    ? await tx.$queryRaw<
        {
          purchaseId: string;
          status: string;
          amountCents: number;
          failedAt: Date | null;
          failureReason: string | null;
        }[]
      >`
        SELECT o.purchase_id AS "purchaseId", r.status, r.amount_cents AS "amountCents",
               r.failed_at AS "failedAt", r.failure_reason AS "failureReason"
        FROM refunds r JOIN orders o ON o.id = r.order_id
        WHERE o.purchase_id = ANY(${purchaseIds}::text[])
        ORDER BY r.failed_at NULLS FIRST`
    : [];
  const byPurchase = new Map<string, PurchaseRefunds>();
  for (const row of rows) {
    const refunds = byPurchase.get(row.purchaseId) ?? {
      returnedCents: 0,
      onItsWayCents: 0,
      sentBack: null,
    };
    if (row.status === "succeeded") refunds.returnedCents += row.amountCents;
    else if (row.status === "pending") refunds.onItsWayCents += row.amountCents;
    else if (row.failedAt)
      // The latest sent back gives the date and the bank's reason (rows come oldest first).
      refunds.sentBack = {
        cents: (refunds.sentBack?.cents ?? 0) + row.amountCents,
        at: row.failedAt,
        reason: row.failureReason,
      };
    byPurchase.set(row.purchaseId, refunds);
  }
  return byPurchase;
};
