/**
 * Reservations are the variants' own quantity: reserving subtracts from `variants.quantity` (the
 * number search's `available` reads), releasing adds it back. Both run inside the transaction that
 * changes the checkout's status, so stock and status never disagree. Each also touches
 * items.updated_at, so incremental search indexes see the change.
 */
import { reserveVariants, restockVariants } from "../catalogue";
import type { Tx } from "../platform/db";
import { heldQuantities } from "./store/checkouts";

/**
 * Reserves every line or reports which could not be: a line needs its item active, its store
 * selling and enough quantity (the catalogue's reserveVariants).
 */
export const reserve = reserveVariants;

/** Gives back the reservations of checkouts that just closed (callers guard the status change). */
export const release = async (tx: Tx, checkoutIds: readonly string[]) => {
  if (checkoutIds.length === 0) return;
  await restockVariants(tx, await heldQuantities(tx, checkoutIds));
};
