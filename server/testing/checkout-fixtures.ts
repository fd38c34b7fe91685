/** Shared set-up for checkout tests: an address, a quote and a checkout through the real REST handlers. */
import { randomUUID } from "node:crypto";
import { createItem } from "@/prisma/factories";
import { callRoute } from "./rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const postQuote = operationHandler("POST /api/v1/checkout/quotes");
const postSession = operationHandler("POST /api/v1/checkout/sessions");

export const torontoAddress = {
  name: "Ana Tremblay",
  line1: "100 Queen St W",
  city: "Toronto",
  province: "ON",
  postal_code: "M5H 2N2",
  country: "CA",
};

export const createQuoteVia = async (
  token: string,
  items: { item_id: number; size?: string; quantity?: number }[],
  address: Record<string, unknown> = torontoAddress,
) => {
  const response = await callRoute(postQuote, {
    path: "/checkout/quotes",
    token,
    body: { items, shipping_address: address },
  });
  return { response, body: await response.json() };
};

export const createCheckoutVia = async (
  token: string,
  body: Record<string, unknown>,
  key: string | null = randomUUID(),
) => {
  const response = await callRoute(postSession, {
    path: "/checkout/sessions",
    token,
    body,
    headers: key === null ? {} : { "Idempotency-Key": key },
  });
  return { response, text: await response.text() };
};

/** A checkout of one new item of the store (through the real REST handlers): its id and the item's. */
export const openCheckoutVia = async (
  token: string,
  options: { storeId: number; priceCents: number; email: string; firstName?: string },
) => {
  const item = await createItem({ storeId: options.storeId, priceCents: options.priceCents });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: options.email,
    ...(options.firstName ? { first_name: options.firstName } : {}),
  });
  return { id: JSON.parse(text).checkout_id as string, itemId: item.id };
};
