/**
 * Catalogue store: what buying reads and writes of items, variants and stores. Raw statements
 * typed `Sql` (server/platform/sql.ts), so each runs in a Prisma transaction (checkout), in a raw
 * `pg` one (POST /purchases, a watch's purchase) or on the pool (a quote): ADR 0014, 0062.
 *
 * Reservations are the variants' own quantity: reserving subtracts from `variants.quantity` (the
 * number search's `available` reads), restocking adds it back. Both run inside the transaction that
 * changes their owner's status, so stock and status never disagree. Each also touches
 * items.updated_at, so incremental search indexes see the change.
 */
import { storeCanSellSql } from "../../core/store-can-sell";
import { Prisma } from "../../generated/prisma/client";
import { anyOf, pipelined, type Sql } from "../../platform/sql";

/** What pricing needs about a requested item: its store with rates, its variants and cover. */
export type QuotableItem = {
  id: number;
  title: string;
  priceCents: number;
  condition: string | null;
  status: "active" | "sold" | "removed";
  url: string;
  store: {
    id: number;
    slug: string;
    name: string;
    url: string;
    agentCheckout: "link" | "direct";
    isOpen: boolean;
    canTakePayment: boolean;
    payoutAccount: string | null;
    canShip: boolean;
    freeShippingThresholdCents: number | null;
    shippingRates: {
      key: string;
      label: string;
      baseCents: number;
      perItemCents: number;
      remoteSurchargeCents: number;
      minDays: number;
      maxDays: number;
    }[];
  };
  variants: {
    id: number;
    size: string | null;
    sizeKey: string | null;
    color: string | null;
    quantity: number;
  }[];
  images: { url: string }[];
};

/**
 * Loads the requested items in the QuotableItem shape with one statement: Prisma's nested select
 * costs a round trip per relation (about 5 ms here), this about one (docs/performance.md, quote).
 */
export const loadQuotableItems = (sql: Sql, ids: number[]) =>
  sql.$queryRaw<QuotableItem[]>`
    SELECT i.id, i.title, i.price_cents AS "priceCents", i.condition::text AS condition, i.status::text AS status, i.url,
      json_build_object(
        'id', s.id, 'slug', s.slug, 'name', s.name, 'url', s.url, 'agentCheckout', s.agent_checkout, 'isOpen', s.is_open,
        'canTakePayment', s.can_take_payment, 'payoutAccount', s.payout_account, 'canShip', s.can_ship, 'freeShippingThresholdCents', s.free_shipping_threshold_cents,
        'shippingRates', (SELECT coalesce(json_agg(json_build_object('key', r.key, 'label', r.label, 'baseCents', r.base_cents,
          'perItemCents', r.per_item_cents, 'remoteSurchargeCents', r.remote_surcharge_cents, 'minDays', r.min_days, 'maxDays', r.max_days)), '[]')
          FROM shipping_rates r WHERE r.store_id = s.id)) AS store,
      (SELECT coalesce(json_agg(json_build_object('id', v.id, 'size', v.size, 'sizeKey', v.size_key, 'color', v.color, 'quantity', v.quantity) ORDER BY v.id), '[]')
        FROM variants v WHERE v.item_id = i.id) AS variants,
      -- The cover as every card shows it (ADR 0133), not any cover image.
      CASE WHEN i.cover_url IS NULL THEN '[]'::json ELSE json_build_array(json_build_object('url', i.cover_url)) END AS images
    FROM items i JOIN stores s ON s.id = i.store_id
    WHERE ${anyOf(Prisma.sql`i.id`, ids, "int")}`;

export type Reservation = { variantId: number; quantity: number };

/**
 * Takes each line's quantity from its variant when its item is active, its store selling and
 * enough is left; returns the reserved variants with their item's price. Rows are locked in id
 * order first, so two buyers sharing items wait for each other instead of deadlocking; the loser
 * then sees the winner's decrement.
 */
export const reserveVariants = async (sql: Sql, lines: readonly Reservation[]) => {
  const variantIds = lines.map((line) => line.variantId);
  const quantities = lines.map((line) => line.quantity);
  // One row cannot deadlock: its update alone locks it (most purchases and watches buy one line).
  // Sent with the update, not awaited first: a caller may pipeline more behind them (POST /purchases).
  const locked =
    new Set(variantIds).size > 1
      ? sql.$queryRaw`SELECT id FROM variants WHERE id = ANY(${variantIds}::int[]) ORDER BY id FOR UPDATE`
      : undefined;
  // One line as scalars: a statement with array parameters is planned again at every execution (anyOf, server/platform/sql.ts).
  const wanted =
    lines.length === 1
      ? Prisma.sql`SELECT ${variantIds[0]}::int AS variant_id, ${quantities[0]}::int AS quantity`
      : Prisma.sql`SELECT unnest(${variantIds}::int[]) AS variant_id, unnest(${quantities}::int[]) AS quantity`;
  const reserving = sql.$queryRaw<{ variant_id: number; price_cents: number }[]>`
    WITH wanted AS (${wanted}),
    taken AS (
      UPDATE variants v SET quantity = v.quantity - w.quantity
      FROM wanted w, items i, stores s
      WHERE v.id = w.variant_id AND i.id = v.item_id AND s.id = i.store_id AND v.quantity >= w.quantity
        AND i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))}
      RETURNING v.id AS variant_id, v.item_id, i.price_cents),
    touched AS (UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM taken))
    SELECT variant_id, price_cents FROM taken`;
  const [, reserved] = await pipelined([locked, reserving]);
  return new Map(reserved.map((row) => [row.variant_id, row.price_cents]));
};

/**
 * Gives reserved quantities back to their variants (a variant may appear more than once). An item
 * that had nothing left to sell (every variant at 0: a reservation holds an item's last unit while
 * it stays active; only a paid order marks it sold, markSoldOut) and is still active gets one
 * `available` catalogue event in the same statement (a released hold, an expired checkout: "back
 * in stock" for search watches). The CTEs share one snapshot, so `before` reads the quantities
 * before the restock.
 */
export const restockVariants = async (sql: Sql, lines: readonly Reservation[]) => {
  if (lines.length === 0) return;
  await sql.$executeRaw`
    WITH freed AS (
      SELECT variant_id, sum(quantity)::int AS quantity
      FROM unnest(${lines.map((line) => line.variantId)}::int[], ${lines.map((line) => line.quantity)}::int[]) AS l(variant_id, quantity)
      GROUP BY variant_id),
    before AS (
      SELECT v.item_id, sum(v.quantity) AS units FROM variants v
      WHERE v.item_id IN (SELECT item_id FROM variants WHERE id IN (SELECT variant_id FROM freed)) GROUP BY v.item_id),
    given AS (UPDATE variants v SET quantity = v.quantity + f.quantity FROM freed f WHERE v.id = f.variant_id RETURNING v.item_id),
    touched AS (UPDATE items SET updated_at = now() WHERE id IN (SELECT item_id FROM given) RETURNING id, status, price_cents)
    INSERT INTO price_change_events (item_id, kind, old_price_cents, new_price_cents)
    SELECT t.id, 'available', t.price_cents, t.price_cents FROM touched t JOIN before b ON b.item_id = t.id
    WHERE b.units = 0 AND t.status = 'active'`;
};

/**
 * The one place an item stops being for sale because it sold: marks sold the active items `which`
 * selects and, in the same statement, records one `sold` catalogue event for each
 * (price_change_events, old = new price). The price-change processor hands the event to every
 * handler: the item's live price watches end item_sold (with their ended email) and its live
 * alerts stop, exactly once (server/price-changes). Only a row this statement moved from active
 * gets an event, so a second sale of the same item (a retry, a race) records nothing.
 */
const sellItems = (sql: Sql, which: Prisma.Sql, now: Date) =>
  sql.$queryRaw<{ item_id: number }[]>`
    WITH sold AS (
      UPDATE items SET status = 'sold', updated_at = ${now}
      WHERE status = 'active' AND ${which}
      RETURNING id, price_cents)
    INSERT INTO price_change_events (item_id, kind, old_price_cents, new_price_cents, created_at)
    SELECT id, 'sold', price_cents, price_cents, ${now} FROM sold
    RETURNING item_id`;

/**
 * Marks sold the active items among `itemIds` with nothing left in any variant (they leave
 * search), recording their `sold` events (sellItems). The caller leaves out items an open checkout
 * still holds a unit of.
 */
export const markSoldOut = async (sql: Sql, itemIds: readonly number[], now: Date) => {
  if (itemIds.length === 0) return;
  await sellItems(
    sql,
    Prisma.sql`${anyOf(Prisma.sql`id`, itemIds, "int")}
      AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.item_id = items.id AND v.quantity > 0)`,
    now,
  );
};

/**
 * The store sold the item elsewhere (in its own shop): it leaves search, reads as not available,
 * and a held purchase of it is cancelled at its charge (item_sold); its `sold` event ends its
 * watches and alerts (sellItems). The sandbox's stand-in for a store's stock feed; false when the
 * item was not active.
 */
export const markItemSold = async (sql: Sql, itemId: number, now: Date) =>
  (await sellItems(sql, Prisma.sql`id = ${itemId}`, now)).length === 1;

/** For each of `itemIds`: its price and whether it is still listed (active, its store selling). */
export const readListings = async (sql: Sql, itemIds: readonly number[]) => {
  if (itemIds.length === 0) return new Map<number, { priceCents: number; isListed: boolean }>();
  const rows = await sql.$queryRaw<{ id: number; price_cents: number; listed: boolean }[]>`
    SELECT i.id, i.price_cents, (i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))}) AS listed
    FROM items i JOIN stores s ON s.id = i.store_id
    WHERE ${anyOf(Prisma.sql`i.id`, [...new Set(itemIds)], "int")}`;
  return new Map(
    rows.map((row) => [row.id, { priceCents: row.price_cents, isListed: row.listed }]),
  );
};

/** True when some of `itemIds` is no longer active (sold elsewhere, or removed): a held purchase's charge checks it. */
export const hasItemNotActive = async (sql: Sql, itemIds: readonly number[]) => {
  if (itemIds.length === 0) return false;
  const [row] = await sql.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM items WHERE ${anyOf(Prisma.sql`id`, itemIds, "int")} AND status <> 'active') AS found`;
  return row.found;
};

export type AlertFacts = {
  id: number;
  priceCents: number;
  status: string;
  canSell: boolean;
  offersPriceAlerts: boolean;
};

/** What setting a price alert checks of its item (undefined when there is no such item). */
export const readAlertFacts = async (sql: Sql, itemId: number): Promise<AlertFacts | undefined> => {
  const [row] = await sql.$queryRaw<
    {
      id: number;
      price_cents: number;
      status: string;
      can_sell: boolean;
      offers_price_alerts: boolean;
    }[]
  >`
    SELECT i.id, i.price_cents, i.status::text AS status, ${Prisma.raw(storeCanSellSql("s"))} AS can_sell, s.offers_price_alerts
    FROM items i JOIN stores s ON s.id = i.store_id WHERE i.id = ${itemId}`;
  return (
    row && {
      id: row.id,
      priceCents: row.price_cents,
      status: row.status,
      canSell: row.can_sell,
      offersPriceAlerts: row.offers_price_alerts,
    }
  );
};
