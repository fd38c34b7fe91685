/**
 * The webhook's queries: the stripe_events ledger (each event id recorded once, claimed by one
 * delivery at a time, marked processed once acted on) and finding the payment a PaymentIntent pays.
 */
import type { Db } from "../../platform/db";
import type { PaymentOwner } from "../../payments";

/**
 * How long a delivery may act on an event before another delivery may take it over (the first one
 * stopped). Longer than the slowest processing: a few Stripe calls of up to 3 × 20 s each.
 */
export const claimLeaseMs = 10 * 60_000;

export type EventRecord = {
  id: string;
  type: string;
  objectId: string | null;
  paymentIntentId: string | null;
  stripeCreatedAt: Date;
};

/** Records the event unless it is known (a redelivery). */
export const recordEvent = async (db: Db, event: EventRecord, now: Date) => {
  await db.stripeEvent.createMany({ data: [{ ...event, receivedAt: now }], skipDuplicates: true });
};

/**
 * Claims the event for this delivery: true when it is not processed and nobody else holds a live
 * claim. One conditional update, so two deliveries of the same event never both act on it.
 */
export const claimEvent = async (db: Db, id: string, now: Date) => {
  const { count } = await db.stripeEvent.updateMany({
    where: {
      id,
      processedAt: null,
      OR: [{ claimedAt: null }, { claimedAt: { lt: new Date(now.getTime() - claimLeaseMs) } }],
    },
    data: { claimedAt: now },
  });
  return count === 1;
};

export const isProcessed = async (db: Db, id: string) =>
  (await db.stripeEvent.count({ where: { id, processedAt: { not: null } } })) === 1;

export const finishEvent = (db: Db, id: string, outcome: string, now: Date) =>
  db.stripeEvent.update({ where: { id }, data: { processedAt: now, outcome } });

/** Gives this delivery's claim (made at `claimedAt`) back after a failure, so Stripe's retry of the event acts on it at once. */
export const releaseClaim = (db: Db, id: string, claimedAt: Date) =>
  db.stripeEvent.updateMany({
    where: { id, processedAt: null, claimedAt },
    data: { claimedAt: null },
  });

export type PaymentOfIntent = {
  id: string;
  checkoutId: string | null;
  purchaseId: string | null;
  attempt: number;
  status: string;
  processorPaymentId: string;
};

const paymentSelect = {
  id: true,
  checkoutId: true,
  purchaseId: true,
  attempt: true,
  status: true,
  processorPaymentId: true,
} as const;

/**
 * The payment a PaymentIntent pays: the row that recorded its id, else (the authorize's answer was
 * lost, so no row has the id yet) the row its authorize key names, which then records the id.
 */
export const findPaymentOfIntent = async (
  db: Db,
  options: { paymentIntentId: string; owner: PaymentOwner | null },
): Promise<PaymentOfIntent | null> => {
  const { paymentIntentId, owner } = options;
  const recorded = await db.payment.findFirst({
    where: { processorPaymentId: paymentIntentId },
    select: paymentSelect,
  });
  if (recorded) return { ...recorded, processorPaymentId: paymentIntentId };
  if (!owner) return null;
  const row = await db.payment.findFirst({
    where:
      owner.kind === "purchase"
        ? { purchaseId: owner.id }
        : { checkoutId: owner.id, attempt: owner.attempt },
    select: paymentSelect,
  });
  // A row that recorded another PaymentIntent is not this one's.
  if (!row || row.processorPaymentId !== null) return null;
  const { count } = await db.payment.updateMany({
    where: { id: row.id, processorPaymentId: null },
    data: { processorPaymentId: paymentIntentId },
  });
  return count === 1
    ? { ...row, processorPaymentId: paymentIntentId }
    : findPaymentOfIntent(db, { paymentIntentId, owner: null });
};
