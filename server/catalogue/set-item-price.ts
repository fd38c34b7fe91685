/**
 * The one way an item's price changes (the ops command item:set-price, the sandbox helper POST
 * /sandbox/items/{id}/price, and any future store edit): the new price and a durable
 * price_change_events row are written in one transaction, so a change is never lost between the
 * two, even if the process dies right after. The processor (process-price-changes.ts) acts on the
 * row; the Inngest event sent after the commit only makes it act sooner.
 */
import { inTransaction, type Db } from "../platform/db";
import { AppError } from "../core/errors";
import { notifyPriceChanged } from "../platform/jobs/events";
import { lockItemPrices, writePriceMoves } from "./store/prices";

export type PriceChange = { itemId: number; priceCents: number };
export type PriceChanged = {
  itemId: number;
  oldPriceCents: number;
  newPriceCents: number;
  eventId: number | null;
};

/**
 * Sets the prices of `changes` (one item or a store-wide sale) in one transaction, locking the item
 * rows in id order (no deadlock with another batch). An unchanged price records no event. An
 * unknown, sold or removed item is not_found (not for sale: it has no price to change) and
 * nothing is written.
 */
export const setItemPrices = async (
  db: Db,
  changes: readonly PriceChange[],
  options: { now: Date },
): Promise<PriceChanged[]> => {
  for (const change of changes) {
    if (!Number.isSafeInteger(change.priceCents) || change.priceCents <= 0)
      throw new Error(`not a price in cents: ${change.priceCents}`);
  }
  const wanted = new Map(changes.map((change) => [change.itemId, change.priceCents]));
  const ids = [...wanted.keys()].sort((a, b) => a - b);
  const results = await inTransaction(db, async (tx) => {
    const rows = await lockItemPrices(tx, ids);
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((row) => row.id));
      throw new AppError("not_found", {
        message: `No item ${ids.find((id) => !found.has(id))} is for sale.`,
      });
    }
    const out: PriceChanged[] = rows.map((row) => ({
      itemId: row.id,
      oldPriceCents: row.priceCents,
      newPriceCents: wanted.get(row.id)!,
      eventId: null,
    }));
    const moved = out.filter((result) => result.oldPriceCents !== result.newPriceCents);
    if (moved.length === 0) return out;
    const eventOf = await writePriceMoves(tx, moved, options.now);
    return out.map((result) => ({ ...result, eventId: eventOf.get(result.itemId) ?? null }));
  });
  notifyPriceChanged(
    results.flatMap((result) => (result.eventId === null ? [] : [result.eventId])),
  );
  return results;
};

/** One item's price (see setItemPrices). */
export const setItemPrice = async (db: Db, change: PriceChange, options: { now: Date }) =>
  (await setItemPrices(db, [change], options))[0];
