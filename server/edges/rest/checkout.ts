/** Quotes and checkout sessions (procedures in server/routers/checkout). */
import { errorResponse } from "./openapi-parts";
import { ZCreateQuoteRequest, ZQuote } from "../../checkout";
import {
  ZCheckout,
  ZCheckoutDetail,
  ZCheckoutIdParams,
  ZCreateCheckoutBody,
  ZIdempotencyHeaders,
} from "../../checkout";
import { defineOperation } from "./operation";

const noCheckout = errorResponse("No such checkout for this client (not_found)");

export const checkoutOperations = [
  defineOperation({
    id: "POST /api/v1/checkout/quotes",
    tool: "create_quote",
    operationId: "createQuote",
    procedure: "checkout.createQuote",
    input: { body: ZCreateQuoteRequest },
    output: ZQuote,
    status: 201,
    outputDescription: "The quote",
    summary: "Price items for a Canadian address: live shipping and tax per store",
    description:
      "Items may come from several stores; each store ships its own parcel. Per store: items at current prices, every shipping option (cheapest marked, with a delivery estimate and the totals it would give), the free-shipping offer, tax lines (GST, HST, PST or QST by destination, charged on items and shipping, rounded half-up per line) and totals; then overall totals. Items that cannot be bought now are listed in unavailable_items; 409 nothing_to_buy when none can. One order may total at most 10000000.00 CAD with its dearest shipping options (an item's price is at most 1000000.00): a quote that could total more is 422 invalid_request with fields.items, and nothing is stored. A quote lives 30 minutes. Scope checkout:write.",
    responses: { 409: errorResponse("nothing_to_buy, with unavailable_items") },
    call: async ({ caller, body }) => ({ body: await caller.checkout.createQuote(body) }),
  }),
  defineOperation({
    id: "POST /api/v1/checkout/sessions",
    tool: "create_checkout",
    operationId: "createCheckout",
    procedure: "checkout.createSession",
    input: { body: ZCreateCheckoutBody, headers: ZIdempotencyHeaders },
    output: ZCheckout,
    status: 201,
    outputDescription: "The checkout (also a replay, with Idempotent-Replayed: true)",
    summary: "Turn a quote into a checkout link (reserves its items for 30 minutes)",
    description:
      "Idempotency-Key is required (up to 64 of A-Z a-z 0-9 _ -, optionally quoted). The first answer is kept 24 hours per client: the same key and request replay it byte for byte with Idempotent-Replayed: true; the same key with another request is 422 idempotency_key_reused with fields naming Idempotency-Key, checked before the quote is looked up (so even for an unknown quote); while the first is running, 409 idempotency_key_in_use with Retry-After. Refusals (create a new quote): 409 quote_expired (also when a price moved), item_unavailable, nothing_to_buy, each with items. Open checkouts hold their items: a client's together may hold at most 1,000 reserved units by default (CLIENT_OPEN_RESERVED_UNITS; the public MCP connector: 5 open checkouts per session, 100 per address); past that, 429 too_many_open_checkouts with limit and Retry-After (the seconds until the first of them expires), not stored under the key.",
    responses: {
      404: errorResponse("No such quote for this client (not_found)"),
      409: errorResponse(
        "quote_expired, item_unavailable, nothing_to_buy, or idempotency_key_in_use (Retry-After)",
      ),
      429: errorResponse(
        "too_many_open_checkouts (the client's open checkouts hold too many reserved units; not stored under the key) or rate_limited; Retry-After",
      ),
    },
    call: async ({ caller, body, headers }) => {
      const { checkout, replayed } = await caller.checkout.createSession({
        ...body,
        idempotency_key: headers["Idempotency-Key"],
      });
      return { body: checkout, headers: replayed ? { "Idempotent-Replayed": "true" } : undefined };
    },
  }),
  defineOperation({
    id: "GET /api/v1/checkout/sessions/{checkout_id}",
    tool: "get_checkout",
    operationId: "getCheckout",
    procedure: "checkout.getSession",
    input: { params: ZCheckoutIdParams },
    output: ZCheckoutDetail,
    summary:
      "Follow a checkout: status, totals per store, and once paid each store's order and tracking",
    responses: { 404: noCheckout },
    call: async ({ caller, params }) => ({ body: await caller.checkout.getSession(params) }),
  }),
  defineOperation({
    id: "POST /api/v1/checkout/sessions/{checkout_id}/cancel",
    tool: "cancel_checkout",
    operationId: "cancelCheckout",
    procedure: "checkout.cancelSession",
    input: { params: ZCheckoutIdParams },
    output: ZCheckout,
    summary: "Cancel a checkout awaiting payment; its items are freed at once",
    description:
      "Cancelling a cancelled checkout answers it again; a paid or expired one is 409 checkout_closed.",
    responses: { 404: noCheckout, 409: errorResponse("Paid or expired (checkout_closed)") },
    call: async ({ caller, params }) => ({ body: await caller.checkout.cancelSession(params) }),
  }),
];
