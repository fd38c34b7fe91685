/**
 * The one writer of price_watches.status: each move is one conditional update guarded by the
 * state table (server/domain/price-watch-state.ts), so a watch moves once however many workers race
 * (two evaluators, the expiry sweep and its Inngest function, the person's cancel). A move to a
 * final state that the person must hear about writes its email in the same transaction, and every
 * move to a final state records its webhook event there too (price_watch.fulfilled, .needs_you, .ended).
 */
import { type PriceWatchEvent, priceWatchTransition } from "../domain/price-watch-state";
import { Prisma } from "../generated/prisma/client";
import { notifyPriceWatchClosed } from "../jobs/events";
import type { PriceWatchRow } from "../routers/price-watches/price-watch-view";
import { toWirePriceWatch } from "../routers/price-watches/price-watch-view";
import { type Sql, sqlTransaction } from "../sql";
import { priceWatchEventType } from "../webhooks/event-types";
import { recordWebhookEvent } from "../webhooks/record-event";
import { type EmailedWatch, writeWatchEndedEmail } from "./watch-emails";

/** The columns a move may set besides the status (a key present with null clears the column). */
export type WatchData = { quoteId?: string | null; claimedAt?: Date | null; purchaseId?: string | null; checkoutId?: string | null; orderNumber?: string | null };

type Move = { id: number; event: PriceWatchEvent; now: Date; outcome?: string; data?: WatchData };

/** The watch as the move left it, with what its emails need. */
export type MovedWatch = PriceWatchRow & EmailedWatch & { clientId: string; personId: string; priceCents: number };

/** `column = value` when the move sets it, else the column unchanged (one statement text for every move, prepared once). */
const setIfGiven = (column: string, data: WatchData, key: keyof WatchData, type: string) =>
  Prisma.sql`${Prisma.raw(column)} = CASE WHEN ${key in data} THEN ${data[key] ?? null}::${Prisma.raw(type)} ELSE w.${Prisma.raw(column)} END`;

/**
 * Moves the watch if the table allows it from its current status (and time); the moved watch, or
 * null when it did not move. One conditional UPDATE, raw SQL so it runs in a Prisma or a `pg`
 * transaction (server/sql.ts). A move to a final state records its webhook event, so it must be
 * made inside a transaction.
 */
export const moveWatch = async (sql: Sql, move: Move): Promise<MovedWatch | null> => {
  const rule = priceWatchTransition(move.event);
  const isFinal = rule.to !== "active" && rule.to !== "executing";
  const data = move.data ?? {};
  const [moved] = await sql.$queryRaw<Omit<MovedWatch, "item">[]>`
    UPDATE price_watches w SET status = ${rule.to}::"PriceWatchStatus", outcome = ${isFinal ? (rule.outcome ?? move.outcome ?? null) : null},
      ended_at = ${isFinal ? move.now : null}, updated_at = ${move.now},
      ${setIfGiven("quote_id", data, "quoteId", "text")}, ${setIfGiven("claimed_at", data, "claimedAt", "timestamptz")},
      ${setIfGiven("purchase_id", data, "purchaseId", "text")}, ${setIfGiven("checkout_id", data, "checkoutId", "text")},
      ${setIfGiven("order_number", data, "orderNumber", "text")}
    FROM items i, persons p
    WHERE w.id = ${move.id} AND i.id = w.item_id AND p.id = w.person_id AND w.status::text = ANY(${[...rule.from]}::text[])
      AND (NOT ${rule.needsUnexpired} OR w.expires_at > ${move.now}) AND (NOT ${rule.needsExpired} OR w.expires_at <= ${move.now})
    RETURNING w.id, w.status::text AS status, w.item_id AS "itemId", w.size, w.max_price_cents AS "maxPriceCents", w.max_total_cents AS "maxTotalCents",
      w.outcome, w.order_number AS "orderNumber", w.purchase_id AS "purchaseId", w.checkout_id AS "checkoutId", w.expires_at AS "expiresAt",
      w.created_at AS "createdAt", w.client_id AS "clientId", w.person_id AS "personId", i.title, i.price_cents AS "priceCents", p.email`;
  if (!moved) return null;
  const watch = { ...moved, item: { title: moved.title, priceCents: moved.priceCents } };
  const type = priceWatchEventType(rule.to);
  if (type) await recordWebhookEvent(sql, { type, clientId: watch.clientId, personId: watch.personId, objectId: String(watch.id), now: move.now, data: () => toWirePriceWatch(watch) });
  return watch;
};

/**
 * Ends a watch without a purchase (expire, item_sold, cancel, end) and emails the person, in one
 * transaction; true when this call ended it (false: it had already moved on).
 */
export const endWatch = async (move: Move & { event: "expire" | "item_sold" | "cancel" | "end" }, options: { email?: boolean } = {}) => {
  const ended = await sqlTransaction(async (sql) => {
    const outcome = move.outcome ?? priceWatchTransition(move.event).outcome ?? "expired";
    const watch = await moveWatch(sql, { ...move, outcome });
    if (!watch) return false;
    if (options.email ?? true) await writeWatchEndedEmail(sql, watch, outcome);
    return true;
  });
  if (ended) notifyPriceWatchClosed(move.id);
  return ended;
};
