/**
 * Store: what POST /purchases' rules read, each in one statement on the `pg` path
 * (docs/adr/0062-purchase-transactions.md: service CPU per purchase 49 → 9 ms). Both statements
 * read other owners' tables (the client's switch, the person, the quote, the saved address and
 * card, the items' prices): joins kept across owners (docs/adr/0103-one-data-access-boundary.md),
 * since the context is one prepared statement before the transaction and the locked state must be
 * read in one statement after the person's lock.
 */
import { Prisma } from "../../generated/prisma/client";
import { rawPool } from "../../platform/db";
import { anyOf, pipelined, type Sql } from "../../platform/sql";
import { type IdempotencyKeyRef, keptRequestHashSql } from "../../platform/idempotency";
import { lockPerson, spendingColumnsSql, type SpendingRow } from "../../accounts";
import type { QuoteSnapshot } from "../../checkout";
import type { PurchaseSwitchClient } from "../agent-purchases";
import type { SavedAddress } from "../address-on-file";

const hourMs = 3_600_000;
const thirtyDaysMs = 30 * 24 * hourMs;
/** Statuses whose amount counts toward the 30-day limit. */
const spendingStatuses = ["processing", "held", "capturing", "paid"] as const;

/**
 * What the purchase needs before its transaction, in one statement: the assistant, the quote (null
 * unless this client's for this person), the person's email and saved address, and the request
 * hash kept under the Idempotency-Key (checked before the quote is). Not the saved card:
 * it is read under the person's lock (readLockedState), review L14.
 */
export type PurchaseContext = PurchaseSwitchClient & {
  name: string;
  quoteId: string | null;
  expiresAt: Date;
  snapshot: QuoteSnapshot;
  address: unknown;
  email: string;
  /** The person's saved language (their emails'), or null. */
  language: string | null;
  shippingAddress: SavedAddress | null;
};

export const readPurchaseContext = async (input: {
  clientId: string;
  personId: string;
  quoteId: string;
  ref: IdempotencyKeyRef;
  now: Date;
}): Promise<(PurchaseContext & { keptRequestHash: string | null }) | undefined> => {
  const { clientId, personId, quoteId, ref, now } = input;
  const { rows } = await rawPool().query<PurchaseContext & { keptRequestHash: string | null }>({
    name: "purchase-context",
    text: `SELECT c.kind::text AS kind, c.name, c.purchases_enabled AS "purchasesEnabled", p.email, p.language,
        q.id AS "quoteId", q.expires_at AS "expiresAt", q.snapshot, q.address,
        ${keptRequestHashSql(4)} AS "keptRequestHash",
        (SELECT json_build_object('name', a.name, 'line1', a.line1, 'line2', a.line2, 'city', a.city, 'province', a.province, 'postalCode', a.postal_code, 'country', a.country)
           FROM shipping_addresses a WHERE a.person_id = p.id) AS "shippingAddress"
      FROM api_clients c JOIN persons p ON p.id = $2
      LEFT JOIN quotes q ON q.id = $3 AND q.client_id = c.id AND q.person_id = p.id
      WHERE c.id = $1`,
    values: [clientId, personId, quoteId, ref.scope, ref.operation, ref.key, now],
  });
  return rows[0];
};

type LockedState = SpendingRow & {
  spentCents: number;
  lastHourCount: number;
  lastHourFirst: Date | null;
  prices: { id: number; priceCents: number }[];
  /** The saved card, read under the lock that its removal takes too (review L14). */
  card: { processorCustomerId: string; paymentMethodId: string; last4: string } | null;
};

/**
 * What the person's purchases of the 30 days before `now` hold or took, in cents (an int
 * expression): the one definition of what counts, also read inside POST /purchases' checks statement.
 */
const spentIn30DaysSql = (personId: string, now: Date, exceptPurchaseId?: string) => Prisma.sql`(
  SELECT COALESCE(SUM(grand_total_cents), 0)::int FROM purchases
  WHERE person_id = ${personId} AND status::text = ANY(${[...spendingStatuses]}::text[]) AND created_at > ${new Date(now.getTime() - thirtyDaysMs)}
    ${exceptPurchaseId ? Prisma.sql`AND id <> ${exceptPurchaseId}` : Prisma.empty})`;

/** What the person's purchases of the last 30 days hold or took, in cents (POST /price-watches' room). */
export const readSpentIn30Days = async (db: Sql, personId: string, now: Date) => {
  const [{ spent }] = await db.$queryRaw<
    { spent: number }[]
  >`SELECT ${spentIn30DaysSql(personId, now)} AS spent`;
  return spent;
};

/**
 * The hourly count leaves out purchases the processor refused before any bank saw them (review M4:
 * a rolled key, a saved card Stripe no longer has): nothing was tried on the card.
 */
const reachedTheBank = Prisma.sql`(reason IS NULL OR reason NOT IN ('payment_method_not_found', 'processor_refused'))`;

/**
 * Everything the rules read that other purchases change, in one statement, after the person's row
 * is locked (a statement of its own: a statement's snapshot is taken when it starts, so the lock
 * must be held before these are read, or a purchase committed during the wait would be missed).
 * The two are sent together (`pipelined`): PostgreSQL starts the read only once the lock statement
 * has finished, and the lock is held one round trip less.
 * This purchase is already written, uncommitted, in the same transaction: it is left out.
 * Another purchase of the same quote cannot be: the quote's unique index made this one's insert
 * wait for it and fail (quote_already_purchased).
 * FOR NO KEY UPDATE (accounts' lockPerson): it serialises purchases of the person (and a change of
 * their limits, an UPDATE of the row) without waiting on the foreign-key checks of rows that only
 * refer to the person (an order, a quote being written), which FOR UPDATE would queue behind.
 */
export const lockPersonAndReadState = async (
  sql: Sql,
  options: { personId: string; purchaseId: string; itemIds: number[]; now: Date },
) => {
  const { personId, purchaseId, itemIds, now } = options;
  const locked = lockPerson(sql, personId);
  const hourAgo = new Date(now.getTime() - hourMs);
  const read = sql.$queryRaw<LockedState[]>`
    SELECT ${spendingColumnsSql},
      ${spentIn30DaysSql(personId, now, purchaseId)} AS "spentCents",
      (SELECT count(*)::int FROM purchases WHERE person_id = ${personId} AND created_at > ${hourAgo} AND id <> ${purchaseId} AND ${reachedTheBank}) AS "lastHourCount",
      (SELECT min(created_at) FROM purchases WHERE person_id = ${personId} AND created_at > ${hourAgo} AND id <> ${purchaseId} AND ${reachedTheBank}) AS "lastHourFirst",
      (SELECT COALESCE(json_agg(json_build_object('id', i.id, 'priceCents', i.price_cents)), '[]'::json)
         FROM items i WHERE ${anyOf(Prisma.sql`i.id`, itemIds, "int")} AND i.status::text <> 'removed') AS prices,
      (SELECT json_build_object('processorCustomerId', s.processor_customer_id, 'paymentMethodId', s.payment_method_id, 'last4', s.last4)
         FROM saved_cards s WHERE s.person_id = p.id) AS card
    FROM persons p WHERE p.id = ${personId}`;
  const [, [state]] = await pipelined([locked, read]);
  return state;
};

/**
 * The last four digits of the person's saved card (NULL without one) as a SQL expression, for the
 * payment written in the same pipeline as the state read: read when that statement runs, after the
 * person's lock, so it is the card `lockPersonAndReadState` read (its removal takes the lock too).
 */
export const savedCardLast4Sql = (personId: string) =>
  Prisma.sql`(SELECT s.last4 FROM saved_cards s WHERE s.person_id = ${personId})`;

/**
 * Whether the person still lets an assistant buy for them: a live grant (not revoked, not expired)
 * of the person to that client with purchase:write, the client not revoked. The one SQL of that rule,
 * read with the watch by the evaluator (watch-standing.ts) and again under the person's lock by the
 * watch's purchase (evaluate-watch.ts stillClaimed, review M3). A boolean SQL expression;
 * `clientId` and `personId` are values or columns.
 */
export const hasPurchaseGrantSql = (
  clientId: string | Prisma.Sql,
  personId: string | Prisma.Sql,
  now: Date,
) => Prisma.sql`
  EXISTS (SELECT 1 FROM oauth_grants g JOIN api_clients c ON c.id = g.client_id
    WHERE g.client_id = ${clientId} AND g.person_id = ${personId} AND g.revoked_at IS NULL AND g.expires_at > ${now}
      AND 'purchase:write' = ANY(g.scopes) AND c.revoked_at IS NULL)`;
