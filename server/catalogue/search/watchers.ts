/**
 * Who is watching an item's price, for the `price_watchers` and `you_are_watching` fields of every
 * ProductSummary and item detail (reference 1.5.0 and 1.6.0). The one definition of a live watcher:
 * a price watch that is `active` or `executing` (it may still buy; every other state is final), or
 * a price alert that is `active` (it may still email). A watch is on the item, so every variant of
 * it counts. `price_watchers` counts distinct OTHER people (the reference counts shoppers, not
 * watches: a person with a watch and an alert on one item is one watcher); `you_are_watching` says
 * whether the viewer is one of them, so the two together account for every live watcher.
 *
 * pg-search computes the counts with `liveWatchersSql`; the in-memory index keeps them in
 * memory/watcher-counts.ts, loaded with the same SQL. The viewer's own live watches come from one
 * query per request for the items on the page (`ownWatchedItems`): never cached, never shared.
 */
import type pg from "pg";
import { type Db, rawPool } from "../../platform/db";
import { liveWatchersSql } from "./live-watchers-sql";

type Queryable = Pick<pg.ClientBase, "query">;

/** Distinct live watchers of each of `itemIds` other than `viewerId` (0 when none), computed in SQL (pg-search). */
export const countWatchersInSql = async (
  db: Db,
  itemIds: readonly number[],
  viewerId: string | undefined,
): Promise<number[]> => {
  if (!itemIds.length) return [];
  const rows = await db.$queryRawUnsafe<{ item_id: number; watchers: number }[]>(
    `SELECT item_id, count(DISTINCT person_id)::int AS watchers FROM (${liveWatchersSql("item_id = ANY($1::int[])")}) w
     WHERE person_id IS DISTINCT FROM $2 GROUP BY item_id`,
    [...itemIds],
    viewerId ?? null,
  );
  const byItem = new Map(rows.map((row) => [row.item_id, row.watchers]));
  return itemIds.map((id) => byItem.get(id) ?? 0);
};

/** The items among `itemIds` on which `personId` has a live watch or alert (one query; none without a person). */
export const ownWatchedItems = async (
  personId: string | undefined,
  itemIds: readonly number[],
  reader: Queryable = rawPool(),
): Promise<Set<number>> => {
  if (!personId || !itemIds.length) return new Set();
  const { rows } = await reader.query<{ item_id: number }>({
    name: "price-watchers-own",
    text: `SELECT DISTINCT item_id FROM (${liveWatchersSql("person_id = $1 AND item_id = ANY($2::int[])")}) w`,
    values: [personId, itemIds],
  });
  return new Set(rows.map((row) => row.item_id));
};
