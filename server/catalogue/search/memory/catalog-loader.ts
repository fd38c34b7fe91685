/**
 * Reads the catalogue from PostgreSQL for the in-memory index: the whole of it in id order (build),
 * rows by id (after a notification) and rows by updated_at (the periodic catch-up). Plain `pg` with
 * array rows: at a million items the Prisma layer would double the build time.
 */
import type pg from "pg";
import { storeCanSellSql } from "../../../core/store-can-sell";
import { CatalogIndex, type CategoryRow, type ItemRow, type StoreRow } from "./catalog-index";
import type { PriceChangeRow } from "./recent-prices";
import { dropWindowMs } from "../types";

export type Reader = Pick<pg.ClientBase, "query">;

// created_at is timestamptz(3): epoch milliseconds as float8 are exact and skip Date parsing.
const itemColumns = `i.id, i.store_id, i.category_id, i.brand, i.price_cents, i.status = 'active', i.size_keys, i.colors,
  (extract(epoch FROM i.created_at) * 1000)::float8, i.search_vector::text`;

type ItemTuple = [
  number,
  number,
  number | null,
  string | null,
  number,
  boolean,
  (string | null)[] | null,
  (string | null)[] | null,
  number,
  string | null,
];

const toItemRow = (row: ItemTuple): ItemRow => ({
  id: row[0],
  storeId: row[1],
  categoryId: row[2],
  brand: row[3],
  priceCents: row[4],
  isActive: row[5],
  sizeKeys: row[6] ?? [],
  colors: row[7] ?? [],
  createdMs: row[8],
  vector: row[9],
});

const queryItems = async (reader: Reader, where: string, values: unknown[]): Promise<ItemRow[]> => {
  const result = await reader.query<ItemTuple>({
    text: `SELECT ${itemColumns} FROM items i WHERE ${where}`,
    values,
    rowMode: "array",
  });
  return result.rows.map(toItemRow);
};

export const loadStores = async (reader: Reader): Promise<StoreRow[]> => {
  const result = await reader.query<{ id: number; slug: string; listed: boolean }>(
    `SELECT s.id, s.slug, ${storeCanSellSql("s")} AS listed FROM stores s`,
  );
  return result.rows.map((row) => ({ id: row.id, slug: row.slug, isListed: row.listed }));
};

export const loadCategories = async (reader: Reader): Promise<CategoryRow[]> =>
  (await reader.query<CategoryRow>("SELECT id, path, depth FROM categories ORDER BY id")).rows;

export const loadItemsByIds = (reader: Reader, ids: number[]) =>
  queryItems(reader, "i.id = ANY($1::int[])", [ids]);

export const loadItemsChangedSince = (reader: Reader, since: Date) =>
  queryItems(reader, "i.updated_at > $1", [since]);

/**
 * The kind-'price' changes of `ids` that the index's recent prices can need (made after its horizon
 * less 7 days), by item then oldest first; the (item_id, created_at) index serves it.
 */
export const loadPriceChanges = async (
  reader: Reader,
  ids: readonly number[],
  horizonMs: number,
): Promise<PriceChangeRow[]> => {
  if (!ids.length) return [];
  const since = Number.isFinite(horizonMs) ? new Date(horizonMs - dropWindowMs) : null;
  const result = await reader.query<[number, number, number]>({
    text: `SELECT e.item_id, (extract(epoch FROM e.created_at) * 1000)::float8, e.old_price_cents
      FROM price_change_events e
      WHERE e.kind = 'price' AND e.item_id = ANY($1::int[]) AND ($2::timestamptz IS NULL OR e.created_at > $2)
      ORDER BY e.item_id, e.created_at, e.id`,
    values: [ids, since],
    rowMode: "array",
  });
  return result.rows.map((row) => ({ itemId: row[0], atMs: row[1], oldCents: row[2] }));
};

/**
 * Upserts rows, reloading stores or categories first when a row names one the index lacks, and
 * the rows' recent price changes.
 */
export const applyItemRows = async (reader: Reader, index: CatalogIndex, rows: ItemRow[]) => {
  if (rows.some((row) => !index.hasStore(row.storeId)))
    for (const store of await loadStores(reader)) index.upsertStore(store);
  if (rows.some((row) => row.categoryId !== null && !index.hasCategory(row.categoryId)))
    index.setCategories(await loadCategories(reader));
  const ids = rows.map((row) => row.id);
  const changes = await loadPriceChanges(reader, ids, index.prices.horizonMs);
  for (const row of rows) index.upsertItem(row);
  index.prices.replace(ids, changes);
};

/**
 * Builds a new index from the whole catalogue, in id order, `batchSize` rows per query; it holds the
 * recent prices of the items whose latest change is after `horizonMs` (all of them without one).
 */
export const buildIndex = async (
  reader: Reader,
  options: { batchSize?: number; horizonMs?: number } = {},
): Promise<CatalogIndex> => {
  // Small batches: each one is garbage before the next scavenge, so the build does not grow the old generation.
  const batchSize = options.batchSize ?? 5000;
  const index = new CatalogIndex(options.horizonMs);
  const { rows: sizes } = await reader.query<{ items: number; max_id: number; postings: number }>(
    "SELECT count(*)::int AS items, coalesce(max(id), 0) AS max_id, coalesce(sum(length(search_vector)), 0)::float8 AS postings FROM items",
  );
  index.reserve({ items: sizes[0].items, maxItemId: sizes[0].max_id, postings: sizes[0].postings });
  index.setCategories(await loadCategories(reader));
  for (const store of await loadStores(reader)) index.upsertStore(store);
  for (let after = 0; ;) {
    const rows = await queryItems(reader, `i.id > $1 ORDER BY i.id LIMIT ${batchSize}`, [after]);
    if (!rows.length) break;
    await applyItemRows(reader, index, rows);
    after = rows[rows.length - 1].id;
  }
  index.finishBuild();
  return index;
};
