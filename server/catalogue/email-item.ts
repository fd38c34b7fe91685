/**
 * An item as the emails show it (emails/components/watched-item.tsx): its title, condition, whole
 * cover URL, store name and link. The caller adds the size and the price its email is about.
 */
import { absolute } from "./product-json";
import type { ItemCard } from "./store/products";

export const emailItemOf = (card: ItemCard) => ({
  title: card.title,
  condition: card.condition,
  imageUrl: card.coverUrl === null ? null : absolute(card.coverUrl),
  storeName: card.store.name,
  url: card.url,
});
