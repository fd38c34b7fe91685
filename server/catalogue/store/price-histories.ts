/**
 * Catalogue store: the price histories of several items in two queries (a page of the dashboard's
 * watches or alerts draws a chart for each), built by the same pure historyOf as one item's read.
 */
import type { Sql } from "../../platform/sql";
import { historyOf, type PriceHistory } from "./price-history";

/** Each known item's history by id (any status); an unknown id is absent from the map. */
export const readPriceHistories = async (
  sql: Sql,
  itemIds: readonly number[],
  now: Date,
): Promise<Map<number, PriceHistory>> => {
  const ids = [...new Set(itemIds)];
  const histories = new Map<number, PriceHistory>();
  if (ids.length === 0) return histories;
  const items = await sql.$queryRaw<{ id: number; price_cents: number; created_at: Date }[]>`
    SELECT id, price_cents, created_at FROM items WHERE id = ANY(${ids}::int[])`;
  const changes = await sql.$queryRaw<
    { item_id: number; old_price_cents: number; new_price_cents: number; created_at: Date }[]
  >`
    SELECT item_id, old_price_cents, new_price_cents, created_at FROM price_change_events
    WHERE item_id = ANY(${ids}::int[]) AND kind = 'price' ORDER BY item_id, created_at, id`;
  // Node 20 has no Map.groupBy.
  const changesOf = new Map<number, typeof changes>();
  for (const change of changes) {
    const list = changesOf.get(change.item_id);
    if (list) list.push(change);
    else changesOf.set(change.item_id, [change]);
  }
  for (const item of items) {
    histories.set(
      item.id,
      historyOf({
        itemId: item.id,
        listedAt: item.created_at,
        priceCents: item.price_cents,
        changes: (changesOf.get(item.id) ?? []).map((change) => ({
          oldPriceCents: change.old_price_cents,
          newPriceCents: change.new_price_cents,
          at: change.created_at,
        })),
        now,
      }),
    );
  }
  return histories;
};
