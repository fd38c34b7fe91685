/**
 * Price-watches store: the status moves and the marks an evaluation leaves. Raw SQL (typed `Sql`):
 * a sale makes these statements for thousands of watches, in a `pg` transaction or on the pool,
 * and the move must also run in the Prisma transactions of the person's changes (ADR 0074, ADR
 * 0103 "Prisma or raw SQL, per store"). The move reads back, in its one statement, its item's title
 * and live price, the person's email and the webhook endpoints that hear of it: a join kept across
 * owners (ADR 0103, "Joins kept across owners").
 */
import { Prisma } from "../../generated/prisma/client";
import { anyOf, type Sql } from "../../platform/sql";
import { type priceWatchEventType, recipientsSql } from "../../partners";
import type { PriceWatchState } from "../states";
import type { WatchRow } from "./watches";

type WatchEventType = NonNullable<ReturnType<typeof priceWatchEventType>>;

/** The columns a move may set besides the status (a key present with null clears the column). */
export type WatchData = {
  quoteId?: string | null;
  claimedAt?: Date | null;
  purchaseId?: string | null;
  checkoutId?: string | null;
  orderNumber?: string | null;
};

/** A moved watch as the statement returns it: its row, its item's title and live price, the person's email, its webhook endpoints. */
type MovedRow = WatchRow & {
  clientId: string;
  personId: string;
  title: string;
  priceCents: number;
  email: string;
  /** The endpoints that hear of the move (null when it records no event). */
  recipients: string[] | null;
};

/** `column = value` when the move sets it, else the column unchanged (one statement text for every move, prepared once). */
const setIfGiven = (column: string, data: WatchData, key: keyof WatchData, type: string) =>
  Prisma.sql`${Prisma.raw(column)} = CASE WHEN ${key in data} THEN ${data[key] ?? null}::${Prisma.raw(type)} ELSE w.${Prisma.raw(column)} END`;

/**
 * One conditional UPDATE: moves the watches of `ids` whose status is among `from` (and whose
 * expiry allows it) to `to`, setting the outcome, the end time and `data`; the moved rows. The
 * state table decides every argument (watch-writer.ts).
 */
export const updateWatchStatus = (
  sql: Sql,
  ids: readonly number[],
  move: {
    to: PriceWatchState;
    from: readonly PriceWatchState[];
    outcome: string | null;
    isFinal: boolean;
    needsUnexpired: boolean;
    needsExpired: boolean;
    data: WatchData;
    now: Date;
    /** The webhook event the move records (null: none). */
    eventType: WatchEventType | null;
  },
) => {
  const { data, now } = move;
  // The webhook endpoints that hear of the move, read by the move itself.
  const recipients = move.eventType
    ? recipientsSql({
        type: move.eventType,
        clientId: Prisma.sql`w.client_id`,
        personId: Prisma.sql`w.person_id`,
        now,
      })
    : Prisma.sql`NULL::text[]`;
  return sql.$queryRaw<MovedRow[]>`
    UPDATE price_watches w SET status = ${move.to}::"PriceWatchStatus", outcome = ${move.outcome},
      ended_at = ${move.isFinal ? now : null}, updated_at = ${now},
      ${setIfGiven("quote_id", data, "quoteId", "text")}, ${setIfGiven("claimed_at", data, "claimedAt", "timestamptz")},
      ${setIfGiven("purchase_id", data, "purchaseId", "text")}, ${setIfGiven("checkout_id", data, "checkoutId", "text")},
      ${setIfGiven("order_number", data, "orderNumber", "text")}
    FROM items i, persons p
    WHERE ${anyOf(Prisma.sql`w.id`, ids, "int")} AND i.id = w.item_id AND p.id = w.person_id AND w.status::text = ANY(${move.from}::text[])
      AND (NOT ${move.needsUnexpired} OR w.expires_at > ${now}) AND (NOT ${move.needsExpired} OR w.expires_at <= ${now})
    RETURNING w.id, w.status::text AS status, w.item_id AS "itemId", w.size, w.max_price_cents AS "maxPriceCents", w.max_total_cents AS "maxTotalCents",
      w.drop_percent AS "dropPercent", w.outcome, w.order_number AS "orderNumber", w.purchase_id AS "purchaseId", w.checkout_id AS "checkoutId", w.expires_at AS "expiresAt",
      w.created_at AS "createdAt", w.group_id AS "groupId", w.client_id AS "clientId", w.person_id AS "personId", i.title, i.price_cents AS "priceCents", p.email,
      ${recipients} AS recipients`;
};

// The over-total mark is set with its evaluation row, in one statement: store/evaluations.ts `setOverTotalRecording`.

/** Whether the watch was last seen over its total (undefined when there is no such watch). */
export const readOverTotal = async (sql: Sql, id: number) => {
  const [watch] = await sql.$queryRaw<
    { overTotal: boolean }[]
  >`SELECT over_total AS "overTotal" FROM price_watches WHERE id = ${id}`;
  return watch?.overTotal;
};

/** Keeps a purchase still processing on its executing watch (it stays executing until the bank's answer). */
export const keepPurchaseOnWatch = (sql: Sql, id: number, purchaseId: string) =>
  sql.$executeRaw`UPDATE price_watches SET purchase_id = ${purchaseId} WHERE id = ${id} AND status = 'executing'`;
