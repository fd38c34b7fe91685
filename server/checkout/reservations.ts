/**
 * Reservations are the variants' own quantity: reserving subtracts from `variants.quantity` (the
 * number search's `available` reads), releasing adds it back. Both run inside the transaction that
 * changes the checkout's status, so stock and status never disagree. Each also touches
 * items.updated_at, so incremental search indexes see the change.
 */
import { storeCanSellSql } from "../core/store-can-sell";
import { Prisma } from "../generated/prisma/client";
import type { Tx } from "../platform/db";
import type { Sql } from "../platform/sql";

export type Reservation = { variantId: number; quantity: number };

/**
 * Reserves every line or reports which could not be: a line needs its item active, its store
 * selling and enough quantity. Rows are locked in id order first, so two checkouts sharing items
 * wait for each other instead of deadlocking; the loser then sees the winner's decrement.
 */
export const reserve = async (tx: Sql, lines: readonly Reservation[]) => {
  const variantIds = lines.map((line) => line.variantId);
  const quantities = lines.map((line) => line.quantity);
  // One row cannot deadlock: its update alone locks it (most purchases and watches buy one line).
  if (new Set(variantIds).size > 1)
    await tx.$queryRaw`SELECT id FROM variants WHERE id = ANY(${variantIds}::int[]) ORDER BY id FOR UPDATE`;
  // One line as scalars: a statement with array parameters is planned again at every execution (anyOf, server/platform/sql.ts).
  const wanted =
    lines.length === 1
      ? Prisma.sql`SELECT ${variantIds[0]}::int AS variant_id, ${quantities[0]}::int AS quantity`
      : Prisma.sql`SELECT unnest(${variantIds}::int[]) AS variant_id, unnest(${quantities}::int[]) AS quantity`;
  const reserved = await tx.$queryRaw<{ variant_id: number; price_cents: number }[]>`
    WITH wanted AS (${wanted}),
    taken AS (
      UPDATE variants v SET quantity = v.quantity - w.quantity
      FROM wanted w, items i, stores s
      WHERE v.id = w.variant_id AND i.id = v.item_id AND s.id = i.store_id AND v.quantity >= w.quantity
        AND i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))}
      RETURNING v.id AS variant_id, v.item_id, i.price_cents),
    touched AS (UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM taken))
    SELECT variant_id, price_cents FROM taken`;
  return new Map(reserved.map((row) => [row.variant_id, row.price_cents]));
};

/** Gives back the reservations of checkouts that just closed (callers guard the status change). */
export const release = async (tx: Tx, checkoutIds: readonly string[]) => {
  if (checkoutIds.length === 0) return;
  await tx.$executeRaw`
    WITH freed AS (
      SELECT variant_id, sum(quantity)::int AS quantity FROM checkout_lines WHERE checkout_id = ANY(${checkoutIds}::text[]) GROUP BY variant_id),
    given AS (UPDATE variants v SET quantity = v.quantity + f.quantity FROM freed f WHERE v.id = f.variant_id RETURNING v.item_id)
    UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM given)`;
};
