/**
 * Catalogue store: what the catalogue's read endpoints load (items, stores, categories). Prisma
 * for the item and store pages and the category tree (one request each, nothing hot); the search
 * page's rows are one prepared statement on the raw pool (ADR 0045: Prisma's nested select made
 * five queries and cost about 3.5 ms of CPU for 24 rows, this one 1.1 ms). Which stores list their
 * items: server/core/store-can-sell.ts.
 */
import { storeCanSellSql, storeCanSellWhere } from "../../core/store-can-sell";
import { Prisma } from "../../generated/prisma/client";
import { type Db, rawPool, type Tx } from "../../platform/db";
import { anyOf } from "../../platform/sql";

const productSummarySelect = {
  id: true,
  title: true,
  brand: true,
  priceCents: true,
  condition: true,
  url: true,
  sizes: true,
  category: { select: { path: true } },
  store: { select: { slug: true, name: true, url: true, agentCheckout: true } },
  // Kept by triggers on item_images and variants (ADR 0133): the one place their rules are written.
  coverUrl: true,
  isAvailable: true,
  // The latest price change: its old price is previous_price.
  priceChanges: {
    where: { kind: "price" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 1,
    select: { oldPriceCents: true },
  },
} satisfies Prisma.ItemSelect;

export type ProductSummaryRow = Prisma.ItemGetPayload<{ select: typeof productSummarySelect }>;

/**
 * What a ProductSummary is made of, flat: the search path reads it with one SQL query. The cover
 * URL is as stored (relative for sandbox pictures).
 */
export type ProductSummarySource = Pick<
  ProductSummaryRow,
  | "id"
  | "title"
  | "brand"
  | "priceCents"
  | "condition"
  | "url"
  | "sizes"
  | "store"
  | "coverUrl"
  | "isAvailable"
> & {
  categoryPath: string | null;
  /** The price before the latest price change; null when the price never changed. */
  previousPriceCents: number | null;
};

const productDetailSelect = {
  ...productSummarySelect,
  description: true,
  // A sold item is still shown, as not available (product-json.ts, ADR 0040).
  status: true,
  createdAt: true,
  images: { select: { url: true, isCover: true }, orderBy: { position: "asc" } },
  variants: {
    select: { id: true, size: true, color: true, quantity: true },
    orderBy: { id: "asc" },
  },
} satisfies Prisma.ItemSelect;

export type ProductDetailRow = Prisma.ItemGetPayload<{ select: typeof productDetailSelect }>;

/** A listed item (not removed, its store selling) with its variants and images; null when not listed. */
export const findListedProduct = (db: Db, id: number): Promise<ProductDetailRow | null> =>
  db.item.findFirst({
    where: { id, status: { not: "removed" }, store: storeCanSellWhere },
    select: productDetailSelect,
  });

/** Whether GET /products/{id} shows the item (not removed, its store selling). */
export const isListedItem = async (db: Db, id: number) =>
  (await db.item.count({ where: { id, status: { not: "removed" }, store: storeCanSellWhere } })) >
  0;

/** What a shopper's page or email shows of an item it concerns (a price alert's, a watch's): picture, title, condition, store, live price. */
export type ItemCard = {
  title: string;
  url: string;
  priceCents: number;
  condition: string | null;
  /** The cover picture's URL as stored (relative for sandbox pictures: `absolute` makes it whole). */
  coverUrl: string | null;
  store: { slug: string; name: string };
};

/**
 * The items' cards by id, in one statement (the cover as the search page picks it). Raw SQL so the
 * writers of price-watch and price-alert emails can read them inside their own transactions.
 */
export const findItemCards = async (
  sql: Pick<Tx, "$queryRaw">,
  ids: readonly number[],
): Promise<Map<number, ItemCard>> => {
  if (ids.length === 0) return new Map();
  const rows = await sql.$queryRaw<
    (Omit<ItemCard, "store"> & { id: number; storeSlug: string; storeName: string })[]
  >`
    SELECT i.id, i.title, i.url, i.price_cents AS "priceCents", i.condition::text AS condition,
      i.cover_url AS "coverUrl",
      s.slug AS "storeSlug", s.name AS "storeName"
    FROM items i JOIN stores s ON s.id = i.store_id
    WHERE ${anyOf(Prisma.sql`i.id`, [...new Set(ids)], "int")}`;
  return new Map(
    rows.map(({ id, storeSlug, storeName, ...card }) => [
      id,
      { ...card, store: { slug: storeSlug, name: storeName } },
    ]),
  );
};

/** A store by its slug with its shipping rates, cheapest first. */
export const findStoreWithRates = (db: Db, slug: string) =>
  db.store.findUnique({
    where: { slug },
    include: { shippingRates: { orderBy: { baseCents: "asc" } } },
  });

/** Sets whether assistants may buy a store's items directly (the ops command store:set); null when there is no such store. */
export const setStoreAgentCheckout = (db: Db, slug: string, agentCheckout: "link" | "direct") =>
  db.store
    .update({
      where: { slug },
      data: { agentCheckout },
      select: { slug: true, agentCheckout: true },
    })
    .catch(() => null);

/** A store's shipping rates (the ops command purchase:create-sandbox). */
export const shippingRatesOf = (db: Db, storeId: number) =>
  db.shippingRate.findMany({ where: { storeId } });

/**
 * An item to buy in the sandbox's purchase command: `itemId`, or else the newest listed item with
 * stock; with its store and its first variant in stock (null when none).
 */
export const findBuyableItem = (db: Db, itemId: number | undefined) =>
  db.item.findFirst({
    where:
      itemId === undefined
        ? {
            status: "active",
            store: storeCanSellWhere,
            variants: { some: { quantity: { gt: 0 } } },
          }
        : { id: itemId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      title: true,
      url: true,
      priceCents: true,
      status: true,
      condition: true,
      images: { orderBy: { position: "asc" }, take: 1, select: { url: true } },
      store: {
        select: {
          id: true,
          slug: true,
          name: true,
          url: true,
          agentCheckout: true,
          freeShippingThresholdCents: true,
        },
      },
      variants: {
        where: { quantity: { gt: 0 } },
        orderBy: { id: "asc" },
        take: 1,
        select: { id: true, size: true, color: true },
      },
    },
  });

/** Every category (by path), and the number of listed items directly in each. */
export const readCategoryCounts = async (db: Db) => {
  const [categories, counts] = await Promise.all([
    db.category.findMany({
      select: { id: true, path: true, name: true, parentId: true },
      orderBy: { path: "asc" },
    }),
    db.$queryRaw<{ category_id: number; count: bigint }[]>`
      SELECT i.category_id, count(*) AS count FROM items i JOIN stores s ON s.id = i.store_id
      WHERE i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))} AND i.category_id IS NOT NULL
      GROUP BY i.category_id`,
  ]);
  return {
    categories,
    ownCounts: new Map(counts.map((row) => [row.category_id, Number(row.count)])),
  };
};

// The cover and the availability are the item's own columns, kept by triggers (ADR 0133): reading
// them from item_images and variants was two index probes an item, half of this statement's time.
const summariesSql = `
  SELECT i.id, i.title, i.brand, i.price_cents, i.condition::text AS condition, i.url, i.sizes, c.path AS category_path,
         s.slug AS store_slug, s.name AS store_name, s.url AS store_url, s.agent_checkout::text AS agent_checkout,
         i.cover_url, i.is_available,
         (SELECT e.old_price_cents FROM price_change_events e WHERE e.item_id = i.id AND e.kind = 'price'
          ORDER BY e.created_at DESC, e.id DESC LIMIT 1) AS previous_price_cents
  FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id
  WHERE i.id = ANY($1::int[])`;

type SummaryRow = {
  id: number;
  title: string;
  brand: string | null;
  price_cents: number;
  condition: ProductSummarySource["condition"];
  url: string;
  sizes: string[];
  category_path: string | null;
  store_slug: string;
  store_name: string;
  store_url: string;
  agent_checkout: "link" | "direct";
  cover_url: string | null;
  is_available: boolean;
  previous_price_cents: number | null;
};

/**
 * The rows of a search page in one SQL statement, with the fields the ProductSummary serializer
 * reads, by id (missing ids are items deleted meanwhile).
 */
export const loadProductSummaries = async (
  ids: readonly number[],
): Promise<Map<number, ProductSummarySource>> => {
  if (!ids.length) return new Map();
  const { rows } = await rawPool().query<SummaryRow>({
    name: "product-summaries",
    text: summariesSql,
    values: [ids],
  });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        title: row.title,
        brand: row.brand,
        priceCents: row.price_cents,
        condition: row.condition,
        url: row.url,
        sizes: row.sizes,
        categoryPath: row.category_path,
        coverUrl: row.cover_url,
        isAvailable: row.is_available,
        previousPriceCents: row.previous_price_cents,
        store: {
          slug: row.store_slug,
          name: row.store_name,
          url: row.store_url,
          agentCheckout: row.agent_checkout,
        },
      },
    ]),
  );
};
