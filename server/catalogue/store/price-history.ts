/**
 * Catalogue store: an item's price history, read from the price_change_events of kind `price` (every
 * price change is one, written with the change; none is ever deleted). The first point starts when
 * the item was listed (items.created_at) at the price before its first change (or its price now when
 * it never changed); each change closes the point before it. Lows are over the points that overlap
 * the window, so a price that held into the window counts.
 */
import type { Sql } from "../../platform/sql";

export type PricePoint = { priceCents: number; from: Date; to: Date | null };

export type PriceHistory = {
  itemId: number;
  listedAt: Date;
  points: PricePoint[];
  lowest30Cents: number;
  lowest90Cents: number;
  lowestSinceListedCents: number;
  /** The price before the latest change; null when the price never changed. */
  previousPriceCents: number | null;
};

const dayMs = 86_400_000;

const lowestSince = (points: readonly PricePoint[], since: Date) =>
  Math.min(
    ...points
      .filter((point) => point.to === null || point.to > since)
      .map((point) => point.priceCents),
  );

/** Builds the history from the listing and the changes (oldest first); pure, so charts and tests share it. */
export const historyOf = (options: {
  itemId: number;
  listedAt: Date;
  priceCents: number;
  changes: readonly { oldPriceCents: number; newPriceCents: number; at: Date }[];
  now: Date;
}): PriceHistory => {
  const { changes, listedAt, now } = options;
  const points: PricePoint[] = [];
  let price = changes[0]?.oldPriceCents ?? options.priceCents;
  let from = listedAt;
  for (const change of changes) {
    points.push({ priceCents: price, from, to: change.at });
    price = change.newPriceCents;
    from = change.at;
  }
  points.push({ priceCents: price, from, to: null });
  return {
    itemId: options.itemId,
    listedAt,
    points,
    lowest30Cents: lowestSince(points, new Date(now.getTime() - 30 * dayMs)),
    lowest90Cents: lowestSince(points, new Date(now.getTime() - 90 * dayMs)),
    lowestSinceListedCents: Math.min(...points.map((point) => point.priceCents)),
    previousPriceCents: changes.at(-1)?.oldPriceCents ?? null,
  };
};

/** The item's price history (any status: a sold item keeps its history); undefined for an unknown item. */
export const readPriceHistory = async (
  sql: Sql,
  itemId: number,
  now: Date,
): Promise<PriceHistory | undefined> => {
  const [item] = await sql.$queryRaw<{ price_cents: number; created_at: Date }[]>`
    SELECT price_cents, created_at FROM items WHERE id = ${itemId}`;
  if (!item) return undefined;
  const changes = await sql.$queryRaw<
    { old_price_cents: number; new_price_cents: number; created_at: Date }[]
  >`
    SELECT old_price_cents, new_price_cents, created_at FROM price_change_events
    WHERE item_id = ${itemId} AND kind = 'price' ORDER BY created_at, id`;
  return historyOf({
    itemId,
    listedAt: item.created_at,
    priceCents: item.price_cents,
    changes: changes.map((change) => ({
      oldPriceCents: change.old_price_cents,
      newPriceCents: change.new_price_cents,
      at: change.created_at,
    })),
    now,
  });
};
