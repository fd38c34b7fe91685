/**
 * Catalogue store: a new listing written (the items, one variant a size, and one `listed`
 * catalogue event an item), in the caller's transaction (list-items.ts). jsonb_to_recordset: one
 * statement for a batch of any size (the bench lists 2,000 at once).
 */
import { Prisma } from "../../generated/prisma/client";
import { AppError } from "../../core/errors";
import { sizeKeys } from "../../core/sizes";
import type { Sql } from "../../platform/sql";

export type NewListing = {
  title: string;
  brand: string | null;
  description: string;
  categoryPath: string | null;
  priceCents: number;
  condition: "new_with_tags" | "new_without_tags" | "excellent" | "good" | "fair" | null;
  sizes: string[];
  color: string | null;
  quantity: number;
};

const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60) || "item";

const storeOf = async (sql: Sql, slug: string) => {
  const [store] = await sql.$queryRaw<{ id: number; url: string }[]>`
    SELECT id, url FROM stores WHERE slug = ${slug}`;
  if (!store) throw new AppError("not_found", { message: `No store ${slug}.` });
  return store;
};

const categoryIds = async (sql: Sql, paths: readonly (string | null)[]) => {
  const wanted = [...new Set(paths.filter((path): path is string => path !== null))];
  if (wanted.length === 0) return new Map<string, number>();
  const rows = await sql.$queryRaw<{ id: number; path: string }[]>`
    SELECT id, path FROM categories WHERE path = ANY(${wanted}::text[])`;
  const found = new Map(rows.map((row) => [row.path, row.id]));
  const missing = wanted.find((path) => !found.has(path));
  if (missing)
    throw new AppError("invalid_request", {
      message: "Unknown category.",
      fields: { category: "must be a path from GET /categories" },
    });
  return found;
};

/** Writes `items` in the store `storeSlug`; returns their ids and their listed events' ids. */
export const writeListings = async (
  sql: Sql,
  storeSlug: string,
  items: readonly NewListing[],
  now: Date,
) => {
  const store = await storeOf(sql, storeSlug);
  const categories = await categoryIds(
    sql,
    items.map((item) => item.categoryPath),
  );
  const urls = items.map(
    (item, index) => `${store.url}/products/${slugOf(item.title)}-${now.getTime()}-${index}`,
  );
  const inserted = await sql.$queryRaw<{ id: number; url: string }[]>`
    INSERT INTO items (store_id, category_id, title, brand, description, price_cents, condition, url, sizes, size_keys, colors, created_at, updated_at, is_available)
    SELECT ${store.id}, l.category_id, l.title, l.brand, l.description, l.price_cents, l.condition::"ItemCondition", l.url,
      ARRAY(SELECT jsonb_array_elements_text(l.sizes)), ARRAY(SELECT jsonb_array_elements_text(l.size_keys)),
      CASE WHEN l.color IS NULL THEN ARRAY[]::text[] ELSE ARRAY[lower(l.color)] END, ${now}, ${now},
      -- As the variants' trigger will find it (ADR 0133), so the listing writes each item once.
      l.quantity > 0
    FROM jsonb_to_recordset(${JSON.stringify(
      items.map((item, index) => ({
        category_id: item.categoryPath === null ? null : categories.get(item.categoryPath),
        title: item.title,
        brand: item.brand,
        description: item.description,
        price_cents: item.priceCents,
        condition: item.condition,
        url: urls[index],
        sizes: item.sizes,
        size_keys: sizeKeys(item.sizes),
        color: item.color,
        quantity: item.quantity,
      })),
    )}::jsonb) AS l(category_id int, title text, brand text, description text, price_cents int, condition text, url text, sizes jsonb, size_keys jsonb, color text, quantity int)
    RETURNING id, url`;
  const idOfUrl = new Map(inserted.map((row) => [row.url, row.id]));
  const rows = urls.map((url) => ({ id: idOfUrl.get(url)! }));
  const variants = rows.flatMap((row, index) => {
    const item = items[index];
    const sizes = item.sizes.length ? item.sizes : [null];
    return sizes.map((size) => ({
      item_id: row.id,
      size,
      size_key: size === null ? null : sizeKeys([size])[0],
      color: item.color === null ? null : item.color.toLowerCase(),
      quantity: item.quantity,
    }));
  });
  await sql.$executeRaw`
    INSERT INTO variants (item_id, size, size_key, color, quantity)
    SELECT v.item_id, v.size, v.size_key, v.color, v.quantity
    FROM jsonb_to_recordset(${JSON.stringify(variants)}::jsonb) AS v(item_id int, size text, size_key text, color text, quantity int)`;
  const ids = rows.map((row) => row.id);
  const events = await sql.$queryRaw<{ id: number }[]>`
    INSERT INTO price_change_events (item_id, kind, old_price_cents, new_price_cents, created_at)
    SELECT i.id, 'listed', i.price_cents, i.price_cents, ${now} FROM items i WHERE ${Prisma.sql`i.id = ANY(${ids}::int[])`}
    ORDER BY i.id RETURNING id`;
  return { itemIds: ids, eventIds: events.map((event) => event.id) };
};
