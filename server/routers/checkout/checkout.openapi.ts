/** OpenAPI paths of quotes and checkout sessions. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZCreateQuoteRequest, ZQuote } from "./checkout.schema";
import { ZCheckout, ZCheckoutDetail, ZCheckoutIdParams, ZCreateCheckoutBody, ZIdempotencyHeaders } from "./session.schema";

const jsonBody = (schema: Parameters<typeof ok>[0]) => ({ required: true, content: { "application/json": { schema } } });
const bodyErrors = { 413: errorResponse("Body over 64 KiB (payload_too_large)"), 415: errorResponse("Body is not JSON (unsupported_media_type)") };
const security = [{ oauth2: ["checkout:write"] }];

export const checkoutPaths: ZodOpenApiPathsObject = {
  "/checkout/quotes": {
    post: {
      operationId: "createQuote",
      summary: "Price items for a Canadian address: live shipping and tax per store",
      description:
        "Items may come from several stores; each store ships its own parcel. Per store: items at current prices, every shipping option (cheapest marked, with a delivery estimate and the totals it would give), the free-shipping offer, tax lines (GST, HST, PST or QST by destination, charged on items and shipping, rounded half-up per line) and totals; then overall totals. Items that cannot be bought now are listed in unavailable_items; 409 nothing_to_buy when none can. A quote lives 30 minutes. Scope checkout:write.",
      security,
      requestBody: jsonBody(ZCreateQuoteRequest),
      responses: { 201: ok(ZQuote, "The quote"), 409: errorResponse("nothing_to_buy, with unavailable_items"), ...bodyErrors, ...commonErrors },
    },
  },
  "/checkout/sessions": {
    post: {
      operationId: "createCheckout",
      summary: "Turn a quote into a checkout link (reserves its items for 30 minutes)",
      description:
        "Idempotency-Key is required (up to 64 of A-Z a-z 0-9 _ -, optionally quoted). The first answer is kept 24 hours per client: the same key and request replay it byte for byte with Idempotent-Replayed: true; the same key with another request is 422 idempotency_key_reused; while the first is running, 409 idempotency_key_in_use with Retry-After. Refusals (create a new quote): 409 quote_expired (also when a price moved), item_unavailable, nothing_to_buy, each with items.",
      security,
      requestParams: { header: ZIdempotencyHeaders },
      requestBody: jsonBody(ZCreateCheckoutBody),
      responses: {
        201: ok(ZCheckout, "The checkout (also a replay, with Idempotent-Replayed: true)"),
        404: errorResponse("No such quote for this client (not_found)"),
        409: errorResponse("quote_expired, item_unavailable, nothing_to_buy, or idempotency_key_in_use (Retry-After)"),
        ...bodyErrors,
        ...commonErrors,
      },
    },
  },
  "/checkout/sessions/{checkout_id}": {
    get: {
      operationId: "getCheckout",
      summary: "Follow a checkout: status, totals per store, and once paid each store's order and tracking",
      security,
      requestParams: { path: ZCheckoutIdParams },
      responses: { 200: ok(ZCheckoutDetail), 404: errorResponse("No such checkout for this client (not_found)"), ...commonErrors },
    },
  },
  "/checkout/sessions/{checkout_id}/cancel": {
    post: {
      operationId: "cancelCheckout",
      summary: "Cancel a checkout awaiting payment; its items are freed at once",
      description: "Cancelling a cancelled checkout answers it again; a paid or expired one is 409 checkout_closed.",
      security,
      requestParams: { path: ZCheckoutIdParams },
      responses: { 200: ok(ZCheckout), 404: errorResponse("No such checkout for this client (not_found)"), 409: errorResponse("Paid or expired (checkout_closed)"), ...commonErrors },
    },
  },
};
