/**
 * Refunding a store order (docs/adr/0107), in three steps so that a crash anywhere leaves a row the
 * sweep (`retryPendingRefunds`) finishes, and never money given back unrecorded:
 * 1. open: under the order's row lock, check what is left to refund and write the refund `pending`
 *    (a store's cancellation marks the order cancelled in the same transaction);
 * 2. ask the processor, outside any transaction, with the key `<refund id>:refund` (a retry
 *    replays: never a second refund) and our ids in its metadata;
 * 3. record: `succeeded` with the store's ledger row (negative amounts; the reversal of its
 *    transfer follows in the payouts sweep), the purchase `refunded` once all its orders are, the
 *    person's email and the partner's `order.refunded` webhook, in one transaction. A refusal
 *    marks it `failed` (nothing given back); no answer leaves it pending for the sweep. A refund
 *    the processor made but the bank has not yet settled stays pending with the processor's id,
 *    recorded when it says (docs/adr/0140): the person hears "refunded" only once it is.
 */
import { AppError } from "../core/errors";
import { toMoney } from "../core/money";
import { inTransaction, type Db, type Tx } from "../platform/db";
import { enqueueEmail } from "../platform/mail/outbox";
import { count } from "../platform/observability/metrics";
import {
  isProcessorRefusal,
  isUnknownOutcome,
  type PaymentProvider,
  type ProcessorRefund,
} from "../payments";
import { orderEmailReader, type QuoteSnapshot } from "../checkout";
import type { RefundIssuedProps } from "../../emails/refund-issued";
import { recordWebhookEvent } from "../partners";
import { markPurchaseRefunded } from "../purchases";
import { findSaleEntry, insertLedgerEntry, insertSaleEntries, storeShare } from "../payouts";
import { refundRefusal, refundRetryDelayMs, refundShare } from "./policy";
import {
  findRefund,
  insertRefund,
  lockOrderById,
  lockOrderByNumber,
  markOrderCancelled,
  markRefundFailed,
  markRefundProcessing,
  markRefundSucceeded,
  markRefundWaiting,
  purchaseRefundTotals,
  type RefundableOrder,
  type RefundRow,
} from "./store";

export type RefundRequest = {
  orderNumber: string;
  /** Omitted: all that is left. */
  amountCents?: number;
  reason: string;
  source: "operator" | "store_cancelled";
  now: Date;
};

/** What happened: the refund as recorded (succeeded, pending: the processor did not answer, failed: it refused). */
export type RefundOutcome = {
  refund: RefundRow;
  orderNumber: string;
  refundedCents: number;
  orderTotalCents: number;
};

export const refundOrder = async (
  db: Db,
  provider: PaymentProvider,
  request: RefundRequest,
): Promise<RefundOutcome> => {
  const { refund, order } = await openRefund(db, request);
  const answer = await askProcessor(provider, refund, order);
  return recordAnswer(db, refund.id, answer, request.now);
};

/** Step 1: the refund written `pending`, under the order's lock. */
const openRefund = (db: Db, request: RefundRequest) =>
  inTransaction(db, async (tx) => {
    const order = await lockOrderByNumber(tx, request.orderNumber);
    if (!order) throw new AppError("not_found", { message: `No order ${request.orderNumber}.` });
    if (order.paymentStatus !== "captured" || !order.paymentId) {
      throw new AppError("order_not_paid", {
        message: order.purchaseId
          ? `Order ${order.number} belongs to purchase ${order.purchaseId}, whose card is not charged: cancel the purchase instead (its hold is released, nothing is charged).`
          : `Order ${order.number} has no captured payment to refund.`,
      });
    }
    if (request.source === "store_cancelled") {
      if (order.fulfilment === "shipped")
        throw new AppError("order_shipped", {
          message: `Order ${order.number} has shipped: refund it instead (order:refund) once the parcel is back.`,
        });
      await markOrderCancelled(tx, { id: order.id, reason: request.reason, now: request.now });
    }
    const amountCents = request.amountCents ?? order.grandTotalCents - order.refundedCents;
    const refusal = refundRefusal({
      paidCents: order.grandTotalCents,
      refundedCents: order.refundedCents,
      amountCents,
    });
    if (refusal)
      throw new AppError("not_refundable", { message: `Order ${order.number}: ${refusal}.` });
    const refund = await insertRefund(tx, {
      orderId: order.id,
      paymentId: order.paymentId,
      amountCents,
      reason: request.reason,
      source: request.source,
      now: request.now,
    });
    return { refund, order };
  });

export type ProcessorAnswer =
  | { kind: "refunded"; processorRefundId: string }
  | { kind: "processing"; processorRefundId: string }
  | { kind: "refused"; reason: string }
  | { kind: "unknown"; reason: string };

/** Step 2: the processor's answer, asked outside any transaction with the refund's own key. */
export const askProcessor = async (
  provider: PaymentProvider,
  refund: RefundRow,
  order: Pick<RefundableOrder, "number" | "processorPaymentId">,
): Promise<ProcessorAnswer> => {
  if (!order.processorPaymentId) return { kind: "refused", reason: "no processor payment" };
  try {
    const made = await provider.refund({
      idempotencyKey: `${refund.id}:refund`,
      paymentId: order.processorPaymentId,
      amountCents: refund.amountCents,
      metadata: { refund: refund.id, order: order.number },
    });
    return answerOfRefund({ id: made.refundId, status: made.refundStatus, failureReason: null });
  } catch (error) {
    if (isProcessorRefusal(error)) return { kind: "refused", reason: error.message };
    if (isUnknownOutcome(error)) return { kind: "unknown", reason: "processor_unanswered" };
    throw error;
  }
};

/** A processor's refund as an answer: made, still at the bank, or failed there. */
export const answerOfRefund = (
  made: Pick<ProcessorRefund, "id" | "status" | "failureReason">,
): ProcessorAnswer =>
  made.status === "succeeded"
    ? { kind: "refunded", processorRefundId: made.id }
    : made.status === "pending"
      ? { kind: "processing", processorRefundId: made.id }
      : {
          kind: "refused",
          reason: `the bank failed the refund: ${made.failureReason ?? "unknown"}`,
        };

/** Step 3: the answer recorded; the refund as it then stands. */
export const recordAnswer = async (
  db: Db,
  refundId: string,
  answer: ProcessorAnswer,
  now: Date,
): Promise<RefundOutcome> =>
  inTransaction(db, async (tx) => {
    const refund = (await findRefund(tx, refundId))!;
    const order = (await lockOrderById(tx, refund.orderId))!;
    const nextAt = new Date(now.getTime() + refundRetryDelayMs(refund.attempts + 1));
    if (answer.kind === "refused")
      await markRefundFailed(tx, { id: refundId, reason: answer.reason, now });
    if (answer.kind === "unknown")
      await markRefundWaiting(tx, { id: refundId, reason: answer.reason, nextAt });
    if (answer.kind === "processing")
      await markRefundProcessing(tx, {
        id: refundId,
        processorRefundId: answer.processorRefundId,
        nextAt,
      });
    let refundedCents = order.succeededCents;
    if (answer.kind === "refunded") {
      const isFirst = await markRefundSucceeded(tx, {
        id: refundId,
        processorRefundId: answer.processorRefundId,
        now,
      });
      if (isFirst) {
        await recordRefunded(tx, { refund, order, now });
        refundedCents += refund.amountCents;
      }
    }
    // Counted once an outcome: a refund still at the bank is counted processing when first seen there.
    const isNews =
      answer.kind === "processing" ? refund.processorRefundId === null : answer.kind !== "unknown";
    if (isNews && refund.status === "pending")
      count("shopping_refunds_total", {
        outcome:
          answer.kind === "refunded"
            ? "succeeded"
            : answer.kind === "refused"
              ? "failed"
              : "processing",
      });
    return {
      refund: (await findRefund(tx, refundId))!,
      orderNumber: order.number,
      refundedCents,
      orderTotalCents: order.grandTotalCents,
    };
  });

/**
 * What a refund that went through changes, in its transaction: the store's ledger row, the
 * purchase's state, the person's email, the partner's webhook. Shared with the refunds the
 * processor reports (made in its dashboard).
 */
export const recordRefunded = async (
  tx: Tx,
  options: { refund: RefundRow; order: RefundableOrder; now: Date },
) => {
  const { refund, order, now } = options;
  // The sale's row comes first (the sweep may not have written it yet): the refund is a share of it.
  await insertSaleEntries(tx, [
    {
      orderId: order.id,
      paymentId: refund.paymentId,
      storeId: order.storeId,
      capturedAt: now,
      ...storeShare(order, order.feeBps),
    },
  ]);
  const sale = (await findSaleEntry(tx, order.id))!;
  await insertLedgerEntry(tx, {
    kind: "refund",
    sourceId: refund.id,
    ...refundShare(sale, {
      refundedBeforeCents: order.succeededCents,
      amountCents: refund.amountCents,
    }),
    orderId: order.id,
    paymentId: refund.paymentId,
    storeId: order.storeId,
    at: now,
  });
  const refundedCents = order.succeededCents + refund.amountCents;
  if (order.purchaseId) {
    const totals = await purchaseRefundTotals(tx, order.purchaseId);
    if (totals.refundedCents >= totals.paidCents)
      await markPurchaseRefunded(tx, { id: order.purchaseId, now });
  }
  const props: RefundIssuedProps = {
    ...(await refundEmailBase(tx, order)),
    amountCents: refund.amountCents,
    refundedCents,
    orderTotalCents: order.grandTotalCents,
    reason: refund.reason,
    storeCancelled: refund.source === "store_cancelled",
  };
  await enqueueEmail(tx, {
    to: order.email,
    template: "refund-issued",
    props,
    dedupeKey: `refund-issued:${refund.id}`,
  });
  await recordRefundEvent(tx, {
    type: "order.refunded",
    order,
    refund,
    refundedCents,
    now,
    fields: { fully_refunded: refundedCents >= order.grandTotalCents },
  });
};

/**
 * What both refund emails say of the order, in the buyer's language (the one they paid the
 * checkout in, else their person's): the order, its store, what was bought and the card.
 */
export const refundEmailBase = async (tx: Tx, order: RefundableOrder) => {
  const store = (order.snapshot as QuoteSnapshot | null)?.stores.find(
    (candidate) => candidate.storeId === order.storeId,
  );
  return {
    ...(await orderEmailReader(tx, { checkoutId: order.checkoutId, personId: order.personId })),
    orderNumber: order.number,
    storeName: order.storeName,
    storeUrl: store?.url ?? "",
    items: (store?.lines ?? []).map((line) => ({
      title: line.title,
      size: line.size,
      quantity: line.quantity,
    })),
    cardLast4: order.cardLast4,
  };
};

/** The partner's event of a refund (`order.refunded`, `order.refund_failed`): the order, the refund, what reached the card so far. */
export const recordRefundEvent = (
  tx: Tx,
  options: {
    type: "order.refunded" | "order.refund_failed";
    order: RefundableOrder;
    refund: RefundRow;
    refundedCents: number;
    now: Date;
    /** Added to the refund's fields, and to the event's. */
    refundFields?: Record<string, unknown>;
    fields?: Record<string, unknown>;
  },
) => {
  const { order, refund, now } = options;
  return recordWebhookEvent(tx, {
    type: options.type,
    clientId: order.clientId,
    personId: order.personId,
    objectId: order.number,
    now,
    data: () => ({
      order_number: order.number,
      checkout_id: order.checkoutId,
      purchase_id: order.purchaseId,
      refund: {
        id: refund.id,
        amount: toMoney(refund.amountCents),
        reason: refund.reason,
        // When it went through: the same in both events of one refund.
        created_at: (refund.succeededAt ?? now).toISOString(),
        ...options.refundFields,
      },
      refunded: toMoney(options.refundedCents),
      ...options.fields,
    }),
  });
};
