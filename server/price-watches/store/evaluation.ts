/**
 * Price-watches store: what evaluating a watch and checking its standing read. Raw SQL (typed
 * `Sql`): a sale evaluates thousands of watches, each read in one statement with its item's live
 * price, its standing (the person's spending columns, `spendingColumnsSql`, accounts'; the grant,
 * `hasPurchaseGrantSql`, purchases') and the saved address: a join kept across owners, ADR 0074
 * (statements per watch) and ADR 0103 ("Joins kept across owners").
 */
import { Prisma } from "../../generated/prisma/client";
import type { Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import { spendingColumnsSql, type SpendingRow } from "../../accounts";
import { hasPurchaseGrantSql } from "../../purchases";
import { recordOverPriceSql } from "./evaluations";

/** The standing as columns: the grant and the settings. */
export type StandingRow = SpendingRow & { hasGrant: boolean };

/**
 * The standing's columns, in a query that has the person's row as `p`; `clientId` is the
 * assistant's id, a value or a column (the evaluator reads them with the watch, in one statement).
 */
const standingColumnsSql = (clientId: string | Prisma.Sql, now: Date) => Prisma.sql`
  ${spendingColumnsSql},
  ${hasPurchaseGrantSql(clientId, Prisma.sql`p.id`, now)} AS "hasGrant"`;

/** The assistant and the person a watch acts as, and the any-of group it is an alternative of (null for none; a watch never changes group). */
export type WatchActor = { id: number; clientId: string; personId: string; groupId: string | null };

/** What evaluating a watch reads: the watch, its item's live price and status, and the person's saved address (null without one). */
export type EvaluatedWatch = WatchActor &
  StandingRow & {
    itemId: number;
    size: string | null;
    maxPriceCents: number;
    maxTotalCents: number;
    expiresAt: Date;
    overTotal: boolean;
    priceCents: number;
    itemStatus: string;
    address: Record<string, string | null> | null;
  };

/**
 * The active watches on an item that a price change concerns, oldest first: those the live price is
 * within, and those last seen over their total (to clear that mark when the price rises again); the
 * others have nothing to do. Each with its standing and the saved address, all in one statement
 * (server/platform/sql.ts on why raw). The address is a quote's shipping_address: the purchase compares it
 * with the saved one. What is read may be stale by the time it is acted on, as any read is: every
 * move is conditional and the purchase checks again under its locks. The same statement records
 * the evaluation of the watches the price is over (recordOverPriceSql).
 */
export const readItemWatches = (sql: Sql, itemId: number, now: Date) =>
  sql.$queryRaw<EvaluatedWatch[]>`
    ${recordOverPriceSql(itemId, now)}
    SELECT w.id, w.client_id AS "clientId", w.person_id AS "personId", w.item_id AS "itemId", w.size,
      w.max_price_cents AS "maxPriceCents", w.max_total_cents AS "maxTotalCents", w.expires_at AS "expiresAt", w.over_total AS "overTotal",
      w.group_id AS "groupId", i.price_cents AS "priceCents", i.status::text AS "itemStatus", ${standingColumnsSql(Prisma.sql`w.client_id`, now)},
      (SELECT json_build_object('name', a.name, 'line1', a.line1, 'line2', a.line2, 'city', a.city, 'province', a.province,
          'postal_code', a.postal_code, 'country', a.country, 'phone', a.phone)
        FROM shipping_addresses a WHERE a.person_id = w.person_id) AS address
    FROM price_watches w JOIN items i ON i.id = w.item_id JOIN persons p ON p.id = w.person_id
    WHERE w.item_id = ${itemId} AND w.status = 'active' AND (i.status <> 'active' OR w.max_price_cents >= i.price_cents OR w.over_total)
    ORDER BY w.id`;

/** A watch's status, assistant, person and claimed quote (undefined when there is no such watch). */
export const readClaimedWatch = async (sql: Sql, id: number) => {
  const [watch] = await sql.$queryRaw<(WatchActor & { status: string; quoteId: string | null })[]>`
    SELECT id, status::text AS status, client_id AS "clientId", person_id AS "personId", group_id AS "groupId", quote_id AS "quoteId" FROM price_watches WHERE id = ${id}`;
  return watch;
};

/**
 * In one statement: whether the watch is still claimed and not expired at `now` (`live`), and
 * whether its person still lets its assistant buy (`granted`: hasPurchaseGrantSql, the one rule);
 * undefined when there is no such watch. Read under the person's lock by the purchase (review M3).
 */
export const readClaimStanding = async (sql: Sql, id: number, now: Date) => {
  const [watch] = await sql.$queryRaw<{ live: boolean; granted: boolean }[]>`
    SELECT w.status = 'executing' AND w.expires_at > ${now} AS live, ${hasPurchaseGrantSql(Prisma.sql`w.client_id`, Prisma.sql`w.person_id`, now)} AS granted
    FROM price_watches w WHERE w.id = ${id}`;
  return watch;
};

/** The standing of an assistant for a person (undefined when there is no such person). */
export const readStanding = async (
  sql: Sql,
  actor: { clientId: string; personId: string },
  now: Date,
) => {
  const [row] = await sql.$queryRaw<
    StandingRow[]
  >`SELECT ${standingColumnsSql(actor.clientId, now)} FROM persons p WHERE p.id = ${actor.personId}`;
  return row;
};

/**
 * The executing watches of these persons (and of the scope) whose purchase does not exist. The
 * caller holds the persons' row locks. Whether the purchase exists reads `purchases` (borrowed:
 * purchases' table, in this statement until its store offers the check; ADR 0103, "Still crossing").
 */
export const findExecutingWithoutPurchase = (
  tx: Tx,
  personIds: readonly string[],
  where: { personId?: string; clientId?: string },
) =>
  tx.$queryRaw<{ id: number; clientId: string; personId: string; maxTotalCents: number }[]>`
    SELECT w.id, w.client_id AS "clientId", w.person_id AS "personId", w.max_total_cents AS "maxTotalCents"
    FROM price_watches w
    WHERE w.status = 'executing' AND w.person_id = ANY(${personIds}::text[])
      AND (${where.personId ?? null}::text IS NULL OR w.person_id = ${where.personId ?? null}::text)
      AND (${where.clientId ?? null}::text IS NULL OR w.client_id = ${where.clientId ?? null}::text)
      AND w.purchase_id IS NULL AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.quote_id = w.quote_id)
      AND w.group_id IS NULL
    ORDER BY w.id`;
