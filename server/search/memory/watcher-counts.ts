/**
 * The live watchers of every watched item, in memory (server/search/watchers.ts defines them): for
 * each item, each watching person and how many live watches or alerts they have on it. A count for
 * a page is then a map lookup per item, with the viewer left out exactly (no subtraction that could
 * go wrong while the index lags behind the viewer's own new alert). Kept by catalog-sync.ts: whole
 * at a rebuild, per item after a `watchers:` notification or a catch-up.
 */
import { liveWatchersSql } from "../watchers";
import type { Reader } from "./catalog-loader";

type Row = { item_id: number; person_id: string };

export class WatcherCounts {
  private readonly byItem = new Map<number, Map<string, number>>();
  /** Live watches and alerts held, to compare with the database's count (a missed delete). */
  total = 0;

  /** Distinct watchers of the item other than `viewerId`. */
  count(itemId: number, viewerId: string | undefined): number {
    const people = this.byItem.get(itemId);
    if (!people) return 0;
    return viewerId !== undefined && people.has(viewerId) ? people.size - 1 : people.size;
  }

  /** Replaces what is held for `itemIds` with `rows` (the live rows of exactly those items). */
  replaceItems(itemIds: Iterable<number>, rows: Row[]) {
    for (const id of itemIds) this.dropItem(id);
    for (const row of rows) this.add(row);
  }

  private dropItem(itemId: number) {
    const people = this.byItem.get(itemId);
    if (!people) return;
    for (const count of people.values()) this.total -= count;
    this.byItem.delete(itemId);
  }

  private add(row: Row) {
    let people = this.byItem.get(row.item_id);
    if (!people) this.byItem.set(row.item_id, (people = new Map()));
    people.set(row.person_id, (people.get(row.person_id) ?? 0) + 1);
    this.total++;
  }
}

/** Every live watcher row, as a new WatcherCounts. */
export const loadWatcherCounts = async (reader: Reader): Promise<WatcherCounts> => {
  const counts = new WatcherCounts();
  const { rows } = await reader.query<Row>(liveWatchersSql());
  counts.replaceItems([], rows);
  return counts;
};

/** The live rows of `itemIds`, applied to `counts`. */
export const reloadWatchedItems = async (reader: Reader, counts: WatcherCounts, itemIds: number[]) => {
  const { rows } = await reader.query<Row>({ text: liveWatchersSql("item_id = ANY($1::int[])"), values: [itemIds] });
  counts.replaceItems(itemIds, rows);
};

/**
 * The catch-up: items whose watches or alerts changed since `since` are reloaded; returns the
 * database's live total in the same snapshot (the caller compares it with `counts.total`).
 */
export const catchUpWatchers = async (reader: Reader, counts: WatcherCounts, since: Date) => {
  const { rows } = await reader.query<{ item_id: number }>({
    text: "SELECT item_id FROM price_watches WHERE updated_at > $1 UNION SELECT item_id FROM price_alerts WHERE updated_at > $1",
    values: [since],
  });
  if (rows.length) await reloadWatchedItems(reader, counts, rows.map((row) => row.item_id));
  const { rows: totals } = await reader.query<{ total: number }>(`SELECT count(*)::int AS total FROM (${liveWatchersSql()}) w`);
  return totals[0].total;
};
