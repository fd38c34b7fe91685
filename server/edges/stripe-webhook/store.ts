/**
 * The webhook's queries: the stripe_events ledger (each event id recorded once, claimed by one
 * delivery at a time, marked processed once acted on). Prisma: one event at a time, off any hot
 * path. The payments an event is about are the payments capability's (its index).
 */
import type { Db } from "../../platform/db";

/**
 * How long a delivery may act on an event before another delivery may take it over (the first one
 * stopped). Longer than the slowest processing: a few Stripe calls of up to 3 × 20 s each.
 */
const claimLeaseMs = 10 * 60_000;

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
