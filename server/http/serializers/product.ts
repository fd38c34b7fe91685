/** Catalogue rows to wire shapes (Money strings, snake_case). */
import { toMoney } from "../../domain/money";
import { env } from "../../env";
import type { ProductDetailRow, ProductSummaryRow } from "../../routers/catalog/catalog.queries";

export type WatchCounts = { watchers: number; youAreWatching: boolean };
const noWatches: WatchCounts = { watchers: 0, youAreWatching: false };

/** Sandbox pictures are stored relative to the service's origin; store pictures are absolute. */
export const absolute = (url: string) => (url.startsWith("/") ? `${env().PUBLIC_URL}${url}` : url);

const coverUrl = (images: { url: string; isCover?: boolean }[]) => {
  const cover = images.find((image) => image.isCover !== false);
  return cover ? absolute(cover.url) : null;
};

export const toProductSummary = (row: ProductSummaryRow, watches: WatchCounts = noWatches) => ({
  id: row.id,
  title: row.title,
  brand: row.brand,
  category: row.category?.path ?? null,
  price: toMoney(row.priceCents),
  sizes: row.sizes,
  condition: row.condition,
  available: row.variants.some((variant) => variant.quantity > 0),
  cover_image: coverUrl(row.images),
  url: row.url,
  store: { slug: row.store.slug, name: row.store.name, url: row.store.url, agent_checkout: row.store.agentCheckout },
  price_watchers: watches.watchers,
  you_are_watching: watches.youAreWatching,
});

export const toProductDetail = (row: ProductDetailRow, watches: WatchCounts = noWatches) => ({
  ...toProductSummary(row, watches),
  description: row.description,
  created_at: row.createdAt.toISOString(),
  images: row.images.map((image) => ({ url: absolute(image.url), is_cover: image.isCover })),
  variants: row.variants.map((variant) => ({ id: variant.id, size: variant.size, color: variant.color, available: variant.quantity > 0 })),
});
