/**
 * Catalogue store: an item's price history, read from the price_change_events of kind `price` (every
 * price change is one, written with the change; none is ever deleted; `listed` and `available` rows
 * are other catalogue changes, never part of it). The first point starts when the item was listed
 * (items.created_at) at the price before its first change (or its price now when it never changed);
 * each change closes the point before it. Lows are over the points that overlap the window, so a
 * price that held into the window counts.
 *
 * A price may change every minute for years: readPriceHistory returns at most `maxPoints` points (the
 * newest; `truncated` says some older ones were left out) and computes the lows in SQL over every
 * change, using the (item_id, created_at) index, so neither the rows read nor the answer grow without
 * bound (ADR 0115).
 */
import type { Sql } from "../../platform/sql";

export type PricePoint = { priceCents: number; from: Date; to: Date | null };

export type PriceHistory = {
  itemId: number;
  listedAt: Date;
  /** Oldest first; at most the newest `maxPoints` of them. */
  points: PricePoint[];
  /** True when older points were left out of `points` (the lows still cover them). */
  truncated: boolean;
  lowest30Cents: number;
  lowest90Cents: number;
  lowestSinceListedCents: number;
  /** The price before the latest change; null when the price never changed. */
  previousPriceCents: number | null;
};

/** How many points a history returns by default: the newest 500. */
const defaultMaxPoints = 500;

const dayMs = 86_400_000;

type Change = { oldPriceCents: number; newPriceCents: number; at: Date };

const lowestSince = (points: readonly PricePoint[], since: Date) =>
  Math.min(
    ...points
      .filter((point) => point.to === null || point.to > since)
      .map((point) => point.priceCents),
  );

/** The points the changes (oldest first) make, the first from the listing. */
const pointsOf = (listedAt: Date, priceCents: number, changes: readonly Change[]) => {
  const points: PricePoint[] = [];
  let price = changes[0]?.oldPriceCents ?? priceCents;
  let from = listedAt;
  for (const change of changes) {
    points.push({ priceCents: price, from, to: change.at });
    price = change.newPriceCents;
    from = change.at;
  }
  points.push({ priceCents: price, from, to: null });
  return points;
};

/** Builds the history from the listing and the changes (oldest first); pure, so charts and tests share it. */
export const historyOf = (options: {
  itemId: number;
  listedAt: Date;
  priceCents: number;
  changes: readonly Change[];
  now: Date;
  maxPoints?: number;
}): PriceHistory => {
  const { changes, listedAt, now } = options;
  const points = pointsOf(listedAt, options.priceCents, changes);
  const maxPoints = options.maxPoints ?? Infinity;
  return {
    itemId: options.itemId,
    listedAt,
    points: points.length > maxPoints ? points.slice(-maxPoints) : points,
    truncated: points.length > maxPoints,
    lowest30Cents: lowestSince(points, new Date(now.getTime() - 30 * dayMs)),
    lowest90Cents: lowestSince(points, new Date(now.getTime() - 90 * dayMs)),
    lowestSinceListedCents: Math.min(...points.map((point) => point.priceCents)),
    previousPriceCents: changes.at(-1)?.oldPriceCents ?? null,
  };
};

type ChangeRow = { old_price_cents: number; new_price_cents: number; created_at: Date };

/**
 * The lows of a history too long to read whole, in one statement: a window's low is the lowest of
 * the prices set inside it and the price in effect when it opened (set by the last change before
 * it, or the first point's when none was). Same rule as lowestSince over every point.
 */
const lowsInSql = async (sql: Sql, itemId: number, now: Date) => {
  const since30 = new Date(now.getTime() - 30 * dayMs);
  const since90 = new Date(now.getTime() - 90 * dayMs);
  const [row] = await sql.$queryRaw<
    {
      first_old: number;
      min_new: number;
      min_new_30: number | null;
      open_30: number | null;
      min_new_90: number | null;
      open_90: number | null;
    }[]
  >`
    SELECT
      (SELECT old_price_cents FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price' ORDER BY created_at, id LIMIT 1) AS first_old,
      (SELECT min(new_price_cents) FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price') AS min_new,
      (SELECT min(new_price_cents) FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price' AND created_at > ${since30}) AS min_new_30,
      (SELECT new_price_cents FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price' AND created_at <= ${since30} ORDER BY created_at DESC, id DESC LIMIT 1) AS open_30,
      (SELECT min(new_price_cents) FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price' AND created_at > ${since90}) AS min_new_90,
      (SELECT new_price_cents FROM price_change_events WHERE item_id = ${itemId} AND kind = 'price' AND created_at <= ${since90} ORDER BY created_at DESC, id DESC LIMIT 1) AS open_90`;
  const lowest = (...prices: (number | null)[]) =>
    Math.min(...prices.filter((price): price is number => price !== null));
  return {
    lowest30Cents: lowest(row.min_new_30, row.open_30 ?? row.first_old),
    lowest90Cents: lowest(row.min_new_90, row.open_90 ?? row.first_old),
    lowestSinceListedCents: lowest(row.first_old, row.min_new),
  };
};

/**
 * The item's price history (any status: a sold item keeps its history), at most `maxPoints` points
 * (default 500, the newest); undefined for an unknown item.
 */
export const readPriceHistory = async (
  sql: Sql,
  itemId: number,
  now: Date,
  options: { maxPoints?: number } = {},
): Promise<PriceHistory | undefined> => {
  const maxPoints = Math.max(2, options.maxPoints ?? defaultMaxPoints);
  const [item] = await sql.$queryRaw<{ price_cents: number; created_at: Date }[]>`
    SELECT price_cents, created_at FROM items WHERE id = ${itemId}`;
  if (!item) return undefined;
  // The newest changes, one more than the points' room: fewer means every change was read.
  const newest = await sql.$queryRaw<ChangeRow[]>`
    SELECT old_price_cents, new_price_cents, created_at FROM price_change_events
    WHERE item_id = ${itemId} AND kind = 'price' ORDER BY created_at DESC, id DESC LIMIT ${maxPoints}`;
  const changes = newest.reverse().map((change) => ({
    oldPriceCents: change.old_price_cents,
    newPriceCents: change.new_price_cents,
    at: change.created_at,
  }));
  const history = historyOf({
    itemId,
    listedAt: item.created_at,
    priceCents: item.price_cents,
    changes,
    now,
    maxPoints,
  });
  if (changes.length < maxPoints) return history;
  // Older changes may exist: the first point read is not the listing's, and the lows need them all.
  return { ...history, truncated: true, ...(await lowsInSql(sql, itemId, now)) };
};
