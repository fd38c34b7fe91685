/** A price watch row → the reference's PriceWatch (Money objects, ISO instants, ids as the reference types them). */
import { toMoney } from "../core/money";
import { checkoutUrl } from "../checkout";
import type { TPriceWatch } from "./price-watch.schema";

/** What the view reads; `priceWatchSelect` selects exactly this. */
export const priceWatchSelect = {
  id: true,
  status: true,
  itemId: true,
  size: true,
  maxPriceCents: true,
  maxTotalCents: true,
  outcome: true,
  orderNumber: true,
  purchaseId: true,
  checkoutId: true,
  expiresAt: true,
  createdAt: true,
  item: { select: { title: true, priceCents: true } },
} as const;

export type PriceWatchRow = {
  id: number;
  status: TPriceWatch["status"];
  itemId: number;
  size: string | null;
  maxPriceCents: number;
  maxTotalCents: number;
  outcome: string | null;
  orderNumber: string | null;
  purchaseId: string | null;
  checkoutId: string | null;
  expiresAt: Date;
  createdAt: Date;
  item: { title: string; priceCents: number };
};

export const toWirePriceWatch = (watch: PriceWatchRow): TPriceWatch => ({
  price_watch_id: watch.id,
  status: watch.status,
  catalog_item_id: String(watch.itemId),
  title: watch.item.title,
  size: watch.size,
  max_price: toMoney(watch.maxPriceCents),
  max_total: toMoney(watch.maxTotalCents),
  current_price: toMoney(watch.item.priceCents),
  outcome: watch.outcome,
  order_number: watch.orderNumber,
  purchase_id: watch.purchaseId,
  checkout_url:
    watch.status === "needs_you" && watch.checkoutId ? checkoutUrl(watch.checkoutId) : null,
  expires_at: watch.expiresAt.toISOString(),
  created_at: watch.createdAt.toISOString(),
});
