/**
 * Request bodies for POST /checkout/quotes and /checkout/sessions, as the service documents them
 * (server/checkout/checkout.schema.ts). Items are single-variant, so no size is needed.
 */
import { randomUUID } from "node:crypto";

export const shippingAddress = {
  name: "Bench Shopper",
  line1: "100 King St W",
  city: "Toronto",
  province: "ON",
  postal_code: "M5X 1A9",
  country: "CA",
};

/** A quote for the given items, one of each, shipped to a Toronto address. */
export const quoteBody = (itemIds: number[]) =>
  JSON.stringify({
    items: itemIds.map((id) => ({ item_id: id, quantity: 1 })),
    shipping_address: shippingAddress,
  });

/** A checkout for a quote, with a fresh Idempotency-Key. */
export const checkoutRequest = (quoteId: string) => ({
  body: JSON.stringify({
    quote_id: quoteId,
    email: `bench+${randomUUID().slice(0, 8)}@example.ca`,
  }),
  headers: { "idempotency-key": randomUUID() },
});
