/**
 * Catalogue store: items' prices and the price_change_events recorded with them (ADR 0070). The
 * events are the catalogue's outbox: written in the price's transaction, so they belong to the
 * catalogue's tables; server/price-changes/ claims and finishes them through these functions.
 * Raw statements (typed `Sql`): a store-wide sale moves thousands of prices in one statement, the
 * claim needs `FOR UPDATE SKIP LOCKED`, and a sale finishes thousands of events, each a statement
 * on the pool (ADR 0074).
 */
import type { Sql } from "../../platform/sql";

export type ItemPrice = { id: number; priceCents: number };

/**
 * Locks the items of `ids` that are for sale (active: a sold or removed item has no price to change),
 * in id order (no deadlock with another batch); their current prices.
 */
export const lockItemPrices = async (sql: Sql, ids: readonly number[]): Promise<ItemPrice[]> => {
  const rows = await sql.$queryRaw<{ id: number; price_cents: number }[]>`
    SELECT id, price_cents FROM items WHERE id = ANY(${[...ids]}::int[]) AND status = 'active' ORDER BY id FOR UPDATE`;
  return rows.map((row) => ({ id: row.id, priceCents: row.price_cents }));
};

export type PriceMove = { itemId: number; oldPriceCents: number; newPriceCents: number };

/**
 * Writes the new prices and one price_change_events row per move; returns each event's id by item.
 * Call with the items locked (lockItemPrices), in the same transaction.
 */
export const writePriceMoves = async (
  sql: Sql,
  moves: readonly PriceMove[],
  now: Date,
): Promise<Map<number, number>> => {
  const ids = moves.map((move) => move.itemId);
  const prices = moves.map((move) => move.newPriceCents);
  await sql.$executeRaw`
    UPDATE items SET price_cents = changed.price, updated_at = ${now}
    FROM unnest(${ids}::int[], ${prices}::int[]) AS changed(id, price) WHERE items.id = changed.id`;
  const events = await sql.$queryRaw<{ id: number; item_id: number }[]>`
    INSERT INTO price_change_events (item_id, old_price_cents, new_price_cents, created_at)
    SELECT changed.id, changed.old, changed.price, ${now}
    FROM unnest(${ids}::int[], ${moves.map((move) => move.oldPriceCents)}::int[], ${prices}::int[]) AS changed(id, old, price)
    RETURNING id, item_id`;
  return new Map(events.map((event) => [event.item_id, event.id]));
};

/** A recorded price change, as its handlers get it. */
export type PriceChangeRecord = {
  id: number;
  itemId: number;
  /** price (a price change), listed (a new listing) or available (stock back after a released hold or an expired checkout). */
  kind: string;
  oldPriceCents: number;
  newPriceCents: number;
  createdAt: Date;
};

export type ClaimedPriceChange = PriceChangeRecord & { attempts: number; claimedUntil: Date };

type ClaimedRow = {
  id: number;
  item_id: number;
  kind: string;
  old_price_cents: number;
  new_price_cents: number;
  created_at: Date;
  attempts: number;
};

/**
 * Claims until `claimedUntil` up to `limit` due events (unprocessed, unclaimed or whose claim
 * lapsed; only `ids` when given), oldest first. SKIP LOCKED: another claimer never waits on them.
 */
export const claimPriceChangeEvents = async (
  sql: Sql,
  options: { now: Date; claimedUntil: Date; limit: number; ids?: readonly number[] },
): Promise<ClaimedPriceChange[]> => {
  const { claimedUntil } = options;
  const ids = options.ids ? [...options.ids] : null;
  const rows = await sql.$queryRaw<ClaimedRow[]>`
    UPDATE price_change_events SET claimed_until = ${claimedUntil}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM price_change_events
      WHERE processed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ${options.now})
        AND (${ids}::int[] IS NULL OR id = ANY(${ids}::int[]))
      ORDER BY id LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, item_id, kind, old_price_cents, new_price_cents, created_at, attempts`;
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      itemId: row.item_id,
      kind: row.kind,
      oldPriceCents: row.old_price_cents,
      newPriceCents: row.new_price_cents,
      createdAt: row.created_at,
      attempts: row.attempts,
      claimedUntil,
    }));
};

type Claim = { id: number; claimedUntil: Date };

/** Marks a claimed event processed; only the holder of this claim does (a takeover records its own). */
export const finishPriceChangeEvent = (sql: Sql, event: Claim, now: Date) =>
  sql.$executeRaw`UPDATE price_change_events SET processed_at = ${now}, claimed_until = NULL, last_error = NULL WHERE id = ${event.id} AND claimed_until = ${event.claimedUntil}`;

/** Hands back claimed events not handled (the sweep stopped): claimable again at once, the claim not counted. */
export const releasePriceChangeEvents = (sql: Sql, events: readonly Claim[]) =>
  events.length === 0
    ? Promise.resolve(0)
    : sql.$executeRaw`
    UPDATE price_change_events SET claimed_until = NULL, attempts = attempts - 1
    WHERE processed_at IS NULL AND (id, claimed_until) IN (
      SELECT * FROM unnest(${events.map((event) => event.id)}::int[], ${events.map((event) => event.claimedUntil)}::timestamptz[]))`;

/** Records a claimed event's failure and when it may be claimed again (only by the holder of this claim). */
export const failPriceChangeEvent = (
  sql: Sql,
  event: Claim,
  options: { retryAt: Date; message: string },
) =>
  sql.$executeRaw`
    UPDATE price_change_events SET claimed_until = ${options.retryAt}, last_error = ${options.message}
    WHERE id = ${event.id} AND claimed_until = ${event.claimedUntil}`;
