/**
 * The one writer of price_watches.status: each move is one conditional update guarded by the
 * state table (server/price-watches/states.ts), so a watch moves once however many workers race
 * (two evaluators, the expiry sweep and its Inngest function, the person's cancel). A move to a
 * final state that the person must hear about writes its email in the same transaction, and every
 * move to a final state records its webhook event there too (price_watch.fulfilled, .needs_you, .ended).
 */
import { type PriceWatchEvent, type PriceWatchState, priceWatchTransition } from "./states";
import { Prisma } from "../generated/prisma/client";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import type { PriceWatchRow } from "./price-watch-view";
import { toWirePriceWatch } from "./price-watch-view";
import { anyOf, type Sql, sqlTransaction } from "../platform/sql";
import { priceWatchEventType } from "../partners";
import { recipientsSql, recordWebhookEvent } from "../partners";
import { type EmailedWatch, writeWatchEndedEmail } from "./watch-emails";

/** The columns a move may set besides the status (a key present with null clears the column). */
type WatchData = {
  quoteId?: string | null;
  claimedAt?: Date | null;
  purchaseId?: string | null;
  checkoutId?: string | null;
  orderNumber?: string | null;
};

type Move = {
  id: number;
  event: PriceWatchEvent;
  now: Date;
  outcome?: string;
  data?: WatchData;
  /** Narrows the statuses the event moves from to these of its rule's (the evaluator ends only an active watch item_sold: an executing one is its purchase's). */
  from?: readonly PriceWatchState[];
};

/** The watch as the move left it, with what its emails need. */
export type MovedWatch = PriceWatchRow &
  EmailedWatch & { clientId: string; personId: string; priceCents: number };

/** `column = value` when the move sets it, else the column unchanged (one statement text for every move, prepared once). */
const setIfGiven = (column: string, data: WatchData, key: keyof WatchData, type: string) =>
  Prisma.sql`${Prisma.raw(column)} = CASE WHEN ${key in data} THEN ${data[key] ?? null}::${Prisma.raw(type)} ELSE w.${Prisma.raw(column)} END`;

/**
 * Moves the watches of `ids` that the table allows from their current status (and time); the moved
 * watches (none when none moved). One conditional UPDATE, raw SQL so it runs in a Prisma or a `pg`
 * transaction (server/platform/sql.ts). A move to a final state records its webhook events, so it must be
 * made inside a transaction.
 */
const moveWatches = async (
  sql: Sql,
  ids: readonly number[],
  move: Omit<Move, "id">,
): Promise<MovedWatch[]> => {
  const rule = priceWatchTransition(move.event);
  const from = rule.from.filter((status) => !move.from || move.from.includes(status));
  const isFinal = rule.to !== "active" && rule.to !== "executing";
  const data = move.data ?? {};
  const type = priceWatchEventType(rule.to);
  // The webhook endpoints that hear of the move, read by the move itself.
  const recipients = type
    ? recipientsSql({
        type,
        clientId: Prisma.sql`w.client_id`,
        personId: Prisma.sql`w.person_id`,
        now: move.now,
      })
    : Prisma.sql`NULL::text[]`;
  const moved = await sql.$queryRaw<(Omit<MovedWatch, "item"> & { recipients: string[] | null })[]>`
    UPDATE price_watches w SET status = ${rule.to}::"PriceWatchStatus", outcome = ${isFinal ? (rule.outcome ?? move.outcome ?? null) : null},
      ended_at = ${isFinal ? move.now : null}, updated_at = ${move.now},
      ${setIfGiven("quote_id", data, "quoteId", "text")}, ${setIfGiven("claimed_at", data, "claimedAt", "timestamptz")},
      ${setIfGiven("purchase_id", data, "purchaseId", "text")}, ${setIfGiven("checkout_id", data, "checkoutId", "text")},
      ${setIfGiven("order_number", data, "orderNumber", "text")}
    FROM items i, persons p
    WHERE ${anyOf(Prisma.sql`w.id`, ids, "int")} AND i.id = w.item_id AND p.id = w.person_id AND w.status::text = ANY(${from}::text[])
      AND (NOT ${rule.needsUnexpired} OR w.expires_at > ${move.now}) AND (NOT ${rule.needsExpired} OR w.expires_at <= ${move.now})
    RETURNING w.id, w.status::text AS status, w.item_id AS "itemId", w.size, w.max_price_cents AS "maxPriceCents", w.max_total_cents AS "maxTotalCents",
      w.outcome, w.order_number AS "orderNumber", w.purchase_id AS "purchaseId", w.checkout_id AS "checkoutId", w.expires_at AS "expiresAt",
      w.created_at AS "createdAt", w.client_id AS "clientId", w.person_id AS "personId", i.title, i.price_cents AS "priceCents", p.email,
      ${recipients} AS recipients`;
  const watches: MovedWatch[] = [];
  for (const { recipients: endpoints, ...row } of moved) {
    const watch = { ...row, item: { title: row.title, priceCents: row.priceCents } };
    if (type && endpoints) {
      await recordWebhookEvent(sql, {
        type,
        clientId: watch.clientId,
        personId: watch.personId,
        objectId: String(watch.id),
        now: move.now,
        data: () => toWirePriceWatch(watch),
        recipients: endpoints,
      });
    }
    watches.push(watch);
  }
  return watches;
};

/** `moveWatches` of one watch: the moved watch, or null when it did not move. */
export const moveWatch = async (sql: Sql, move: Move): Promise<MovedWatch | null> =>
  (await moveWatches(sql, [move.id], move))[0] ?? null;

type EndMove = Omit<Move, "id"> & { event: "expire" | "item_sold" | "cancel" | "end" };

/**
 * Ends a watch without a purchase (expire, item_sold, cancel, end) and emails the person, in one
 * transaction; true when this call ended it (false: it had already moved on).
 */
export const endWatch = async (move: EndMove & { id: number }, options: { email?: boolean } = {}) =>
  (await endWatches([move.id], move, options)).length === 1;

/** `endWatch` of several watches in one transaction (the watches of a sold item); the ids of those this call ended. */
export const endWatches = async (
  ids: readonly number[],
  move: EndMove,
  options: { email?: boolean } = {},
) => {
  const ended = await sqlTransaction((sql) => endWatchesIn(sql, ids, move, options));
  for (const id of ended) notifyPriceWatchClosed(id);
  return ended;
};

/** `endWatch` in the caller's transaction (the caller notifies after its commit). */
export const endWatchIn = async (sql: Sql, move: EndMove & { id: number }) =>
  (await endWatchesIn(sql, [move.id], move)).length === 1;

const endWatchesIn = async (
  sql: Sql,
  ids: readonly number[],
  move: EndMove,
  options: { email?: boolean } = {},
) => {
  const outcome = move.outcome ?? priceWatchTransition(move.event).outcome ?? "expired";
  const watches = await moveWatches(sql, ids, { ...move, outcome });
  if (options.email ?? true)
    for (const watch of watches) await writeWatchEndedEmail(sql, watch, outcome);
  return watches.map((watch) => watch.id);
};
