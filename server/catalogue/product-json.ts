/** Catalogue rows to wire shapes (Money strings, snake_case). */
import { toMoney } from "../core/money";
import { env } from "../platform/env";
import type { ProductDetailRow, ProductSummaryRow, ProductSummarySource } from "./store/products";

export type { ProductSummarySource };

export type WatchCounts = { watchers: number; youAreWatching: boolean };
const noWatches: WatchCounts = { watchers: 0, youAreWatching: false };

/** Sandbox pictures are stored relative to the service's origin; store pictures are absolute. */
export const absolute = (url: string) => (url.startsWith("/") ? `${env().PUBLIC_URL}${url}` : url);

const summarySourceOf = (row: ProductSummaryRow): ProductSummarySource => ({
  id: row.id,
  title: row.title,
  brand: row.brand,
  priceCents: row.priceCents,
  condition: row.condition,
  url: row.url,
  sizes: row.sizes,
  store: row.store,
  categoryPath: row.category?.path ?? null,
  coverUrl: row.coverUrl,
  isAvailable: row.isAvailable,
  previousPriceCents: row.priceChanges[0]?.oldPriceCents ?? null,
});

export const summaryFromSource = (
  source: ProductSummarySource,
  watches: WatchCounts = noWatches,
) => ({
  id: source.id,
  title: source.title,
  brand: source.brand,
  category: source.categoryPath,
  price: toMoney(source.priceCents),
  previous_price: source.previousPriceCents === null ? null : toMoney(source.previousPriceCents),
  sizes: source.sizes,
  condition: source.condition,
  available: source.isAvailable,
  cover_image: source.coverUrl === null ? null : absolute(source.coverUrl),
  url: source.url,
  store: {
    slug: source.store.slug,
    name: source.store.name,
    url: source.store.url,
    agent_checkout: source.store.agentCheckout,
  },
  price_watchers: watches.watchers,
  you_are_watching: watches.youAreWatching,
});

const toProductSummary = (row: ProductSummaryRow, watches: WatchCounts = noWatches) =>
  summaryFromSource(summarySourceOf(row), watches);

/**
 * Whether a listed item's units can be bought: only an active one. A sold item stays readable
 * (ADR 0040) with units left in its variants (a store that sold it elsewhere says nothing of its
 * stock), so `is_available` alone (units left, ADR 0133) would call it available.
 */
const isForSale = (row: Pick<ProductDetailRow, "status">) => row.status === "active";

export const toProductDetail = (row: ProductDetailRow, watches: WatchCounts = noWatches) => ({
  ...toProductSummary(row, watches),
  available: isForSale(row) && row.isAvailable,
  description: row.description,
  created_at: row.createdAt.toISOString(),
  images: row.images.map((image) => ({ url: absolute(image.url), is_cover: image.isCover })),
  variants: row.variants.map((variant) => ({
    id: variant.id,
    size: variant.size,
    color: variant.color,
    available: isForSale(row) && variant.quantity > 0,
  })),
});
