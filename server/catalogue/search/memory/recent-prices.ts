/**
 * What the in-memory index knows of items' recent price changes, for price_drop and on_sale (ADR
 * 0115): a sparse map, only for the items whose latest kind-'price' change is newer than a horizon
 * (31 days before the database's time, moved forward by every catch-up), so an index of a million
 * items that rarely change holds next to nothing, and a busy sale adds a few dozen bytes an item.
 *
 * Per item, one array of pairs [at ms, old price] (oldest first): the "stairs" of the changes made in
 * the 7 days up to its latest change, keeping only a change whose old price is above every later
 * change's. The last pair is the latest change itself (its old price is previous_price). For any time
 * `now` at or after the latest change, the highest old price of the changes made after `since` is
 * the old price of the first pair made after `since`, which search reads with one short walk.
 *
 * A search at a time this cannot answer for (older than 30 days after the horizon, or before the
 * newest change held: a clock behind the data) goes to pg-search instead (memory-search.ts).
 */
import { dropWindowMs, saleWindowMs } from "../types";

/** Items whose latest change is older than this, before the database's time, are not held. */
export const retainMs = saleWindowMs + 86_400_000;

/** A change as the loader reads it. */
export type PriceChangeRow = { itemId: number; atMs: number; oldCents: number };

/** The stairs of one item's changes (oldest first, all of one item). */
export const stairsOf = (changes: readonly { atMs: number; oldCents: number }[]) => {
  const latest = changes[changes.length - 1];
  const stairs: number[] = [];
  let highest = -1;
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i];
    if (change.atMs <= latest.atMs - dropWindowMs) break;
    if (change.oldCents > highest) {
      stairs.push(change.oldCents, change.atMs);
      highest = change.oldCents;
    }
  }
  // Built newest first as [old, at] pairs: reversed, they are [at, old] pairs oldest first.
  return stairs.reverse();
};

export class RecentPrices {
  private readonly stairs = new Map<number, number[]>();
  /** The newest change held (ms); a search before it is a clock behind the data. */
  private newestMs = -Infinity;

  constructor(public horizonMs: number) {}

  get size() {
    return this.stairs.size;
  }

  /** Replaces what is held of `itemIds` with `changes` (theirs, made after horizon - 7 days, oldest first). */
  replace(itemIds: readonly number[], changes: readonly PriceChangeRow[]) {
    for (const id of itemIds) this.stairs.delete(id);
    for (let start = 0; start < changes.length;) {
      let end = start + 1;
      while (end < changes.length && changes[end].itemId === changes[start].itemId) end++;
      const own = changes.slice(start, end);
      const latestMs = own[own.length - 1].atMs;
      if (latestMs > this.horizonMs) {
        this.stairs.set(changes[start].itemId, stairsOf(own));
        if (latestMs > this.newestMs) this.newestMs = latestMs;
      }
      start = end;
    }
  }

  delete(itemId: number) {
    this.stairs.delete(itemId);
  }

  /** Moves the horizon forward and forgets the items whose latest change is no newer. */
  prune(horizonMs: number) {
    if (horizonMs <= this.horizonMs) return;
    this.horizonMs = horizonMs;
    for (const [id, stairs] of this.stairs)
      if (stairs[stairs.length - 2] <= horizonMs) this.stairs.delete(id);
  }

  /** Whether every item on sale or dropped at `nowMs` is held. */
  covers(nowMs: number) {
    return nowMs - saleWindowMs >= this.horizonMs && nowMs >= this.newestMs;
  }

  /**
   * Calls `visit` for each item held with its latest change's time and old price, and the highest
   * old price of its changes made after `sinceMs` (-1 when none).
   */
  forEach(
    sinceMs: number,
    visit: (itemId: number, latestMs: number, previousCents: number, highCents: number) => void,
  ) {
    for (const [id, stairs] of this.stairs) {
      let at = 0;
      while (at < stairs.length && stairs[at] <= sinceMs) at += 2;
      const n = stairs.length;
      visit(id, stairs[n - 2], stairs[n - 1], at < n ? stairs[at + 1] : -1);
    }
  }
}
