/**
 * Reservations are the variants' own quantity: reserving subtracts from `variants.quantity` (the
 * number search's `available` reads), releasing adds it back. Both run inside the transaction that
 * changes the checkout's status, so stock and status never disagree. Each also touches
 * items.updated_at, so incremental search indexes see the change.
 */
import { reserveVariants } from "../catalogue";
import type { Tx } from "../platform/db";

export type { Reservation } from "../catalogue";

/**
 * Reserves every line or reports which could not be: a line needs its item active, its store
 * selling and enough quantity (the catalogue's reserveVariants).
 */
export const reserve = reserveVariants;

/** Gives back the reservations of checkouts that just closed (callers guard the status change). */
export const release = async (tx: Tx, checkoutIds: readonly string[]) => {
  if (checkoutIds.length === 0) return;
  await tx.$executeRaw`
    WITH freed AS (
      SELECT variant_id, sum(quantity)::int AS quantity FROM checkout_lines WHERE checkout_id = ANY(${checkoutIds}::text[]) GROUP BY variant_id),
    given AS (UPDATE variants v SET quantity = v.quantity + f.quantity FROM freed f WHERE v.id = f.variant_id RETURNING v.item_id)
    UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM given)`;
};
