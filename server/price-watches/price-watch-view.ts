/** A price watch row → the reference's PriceWatch (Money objects, ISO instants, ids as the reference types them). */
import { toMoney } from "../core/money";
import { checkoutUrl } from "../checkout";
import { absolute, findItemCards, type ItemCard } from "../catalogue";
import type { Db } from "../platform/db";
import type { TPriceWatch } from "./price-watch.schema";
import type { WatchRow } from "./store/watches";

/** What the view reads: the watch's row and its item's title and live price. */
export type PriceWatchRow = WatchRow & { item: { title: string; priceCents: number } };

/** The watched item as the shopper's pages show it: picture (absolute URL), title, condition, store, live price. */
export type WatchedItem = {
  title: string;
  priceCents: number;
  url: string;
  condition: string | null;
  imageUrl: string | null;
  storeName: string;
};

/** The catalogue's card of an item as the watch pages and the alert pages show it. */
export const watchedItemOf = (card: ItemCard): WatchedItem => ({
  title: card.title,
  priceCents: card.priceCents,
  url: card.url,
  condition: card.condition,
  imageUrl: card.coverUrl === null ? null : absolute(card.coverUrl),
  storeName: card.store.name,
});

/** The watches with their items (watchedItemOf), the catalogue's (one read for them all). */
export const withItems = async <T extends WatchRow>(db: Db, rows: readonly T[]) => {
  const cards = await findItemCards(
    db,
    rows.map((row) => row.itemId),
  );
  return rows.map((row) => ({ ...row, item: watchedItemOf(cards.get(row.itemId)!) }));
};

/** One watch with its item (withItems). */
export const withItem = async <T extends WatchRow>(db: Db, row: T) =>
  (await withItems(db, [row]))[0];

export const toWirePriceWatch = (watch: PriceWatchRow): TPriceWatch => ({
  price_watch_id: watch.id,
  status: watch.status,
  catalog_item_id: String(watch.itemId),
  title: watch.item.title,
  size: watch.size,
  max_price: toMoney(watch.maxPriceCents),
  drop_percent: watch.dropPercent,
  max_total: toMoney(watch.maxTotalCents),
  current_price: toMoney(watch.item.priceCents),
  outcome: watch.outcome,
  order_number: watch.orderNumber,
  purchase_id: watch.purchaseId,
  checkout_url:
    watch.status === "needs_you" && watch.checkoutId ? checkoutUrl(watch.checkoutId) : null,
  expires_at: watch.expiresAt.toISOString(),
  created_at: watch.createdAt.toISOString(),
  price_watch_group_id: watch.groupId,
});
