/**
 * The one writer of price_watches.status: each move is one conditional update guarded by the
 * state table (server/domain/price-watch-state.ts), so a watch moves once however many workers race
 * (two evaluators, the expiry sweep and its Inngest function, the person's cancel). A move to a
 * final state that the person must hear about writes its email in the same transaction, and every
 * move to a final state records its webhook event there too (price_watch.fulfilled, .needs_you, .ended).
 */
import type { Db } from "../db";
import { type PriceWatchEvent, priceWatchTransition } from "../domain/price-watch-state";
import type { Prisma } from "../generated/prisma/client";
import type { Tx } from "../db";
import { notifyPriceWatchClosed } from "../jobs/events";
import { priceWatchSelect, toWirePriceWatch } from "../routers/price-watches/price-watch-view";
import { priceWatchEventType } from "../webhooks/event-types";
import { recordWebhookEvent, type WebhookWriter } from "../webhooks/record-event";
import { type EmailedWatch, writeWatchEndedEmail } from "./watch-emails";

type Move = { id: number; event: PriceWatchEvent; now: Date; outcome?: string; data?: Prisma.PriceWatchUpdateManyMutationInput };

/**
 * Moves the watch if the table allows it from its current status (and time); true when it moved.
 * A move to a final state records its webhook event, so it must be made inside a transaction.
 */
export const moveWatch = async (db: Pick<Tx, "priceWatch"> & WebhookWriter, move: Move) => {
  const rule = priceWatchTransition(move.event);
  const isFinal = rule.to !== "active" && rule.to !== "executing";
  const result = await db.priceWatch.updateMany({
    where: {
      id: move.id,
      status: { in: [...rule.from] },
      ...(rule.needsUnexpired ? { expiresAt: { gt: move.now } } : {}),
      ...(rule.needsExpired ? { expiresAt: { lte: move.now } } : {}),
    },
    data: {
      status: rule.to,
      outcome: isFinal ? (rule.outcome ?? move.outcome ?? null) : null,
      endedAt: isFinal ? move.now : null,
      updatedAt: move.now,
      ...move.data,
    },
  });
  if (result.count !== 1) return false;
  const type = priceWatchEventType(rule.to);
  if (type) {
    const watch = await db.priceWatch.findUniqueOrThrow({ where: { id: move.id }, select: { ...priceWatchSelect, clientId: true, personId: true } });
    await recordWebhookEvent(db, { type, clientId: watch.clientId, personId: watch.personId, objectId: String(watch.id), now: move.now, data: () => toWirePriceWatch(watch) });
  }
  return true;
};

/** The watch and what its emails need, for a move that emails. */
export const emailedWatch = async (db: Pick<Tx, "priceWatch">, id: number): Promise<EmailedWatch & { overTotal: boolean }> => {
  const row = await db.priceWatch.findUniqueOrThrow({
    where: { id },
    select: { id: true, maxPriceCents: true, maxTotalCents: true, expiresAt: true, overTotal: true, person: { select: { email: true } }, item: { select: { title: true } } },
  });
  return { id: row.id, email: row.person.email, title: row.item.title, maxPriceCents: row.maxPriceCents, maxTotalCents: row.maxTotalCents, expiresAt: row.expiresAt, overTotal: row.overTotal };
};

/**
 * Ends a watch without a purchase (expire, item_sold, cancel, end) and emails the person, in one
 * transaction; true when this call ended it (false: it had already moved on).
 */
export const endWatch = async (db: Db, move: Move & { event: "expire" | "item_sold" | "cancel" | "end" }, options: { email?: boolean } = {}) => {
  const ended = await db.$transaction(async (tx) => {
    const watch = await emailedWatch(tx, move.id);
    const outcome = move.outcome ?? priceWatchTransition(move.event).outcome ?? "expired";
    if (!(await moveWatch(tx, { ...move, outcome }))) return false;
    if (options.email ?? true) await writeWatchEndedEmail(tx, watch, outcome);
    return true;
  });
  if (ended) notifyPriceWatchClosed(move.id);
  return ended;
};
