/**
 * Price watches (procedures in server/price-watches). Setting one is no MCP tool (buying on a watch
 * is the person's grant to one assistant); the preview and the evaluations only read, and are
 * (1.9.0, ADR 0116).
 */
import { maxLiveWatches, watchDays } from "../../price-watches";
import { errorResponse } from "./openapi-parts";
import {
  ZCreatePriceWatchBody,
  ZListPriceWatchesQuery,
  ZPriceWatch,
  ZPriceWatchIdParams,
  ZPriceWatchEvaluationList,
  ZPriceWatchList,
  ZPriceWatchPreview,
} from "../../price-watches";
import { defineOperation } from "./operation";

const noWatch = errorResponse("No such price watch of this person (not_found)");

export const priceWatchOperations = [
  defineOperation({
    id: "POST /api/v1/price-watches",
    operationId: "createPriceWatch",
    procedure: "priceWatches.create",
    input: { body: ZCreatePriceWatchBody },
    output: ZPriceWatch,
    status: 201,
    outputDescription: "Set: status active; the person was emailed with a cancel link",
    summary:
      "Buy an item once for the person when its price falls to max_price and the total is within max_total",
    description:
      "Scope purchase:write, with the same permission and store rules as POST /purchases: a token the person granted to an assistant registered at /oauth/register/agent, purchases switched on for it, the item's store direct, the person's limits set and not paused, a saved card and a saved address outside Quebec. " +
      `When the price is at most max_price and a fresh quote for the saved address is within max_total, the service buys once through POST /purchases' path (card held, charged 24 hours later unless cancelled) before the watch expires (days ${watchDays.min} to ${watchDays.max}, default ${watchDays.default}). The item is not reserved meanwhile. The person is emailed when it is set (with a cancel link), buys, ends or needs them. ` +
      `At most ${maxLiveWatches} live (active or executing) watches per person; one per item. Every refusal is 409 and sets nothing.`,
    responses: {
      403: errorResponse("insufficient_scope (no purchase:write, or no person on the token)"),
      404: errorResponse("No such item (not_found)"),
      409: errorResponse(
        "No watch set: already_at_price (with current_price: buy it now instead), already_watching (with price_watch_id), too_many_watches, store_requires_checkout_link, over_spending_limit (max_total over the per-order limit or the 30-day room; with limit and room), spending_limit_not_set, purchases_paused, agent_purchases_unavailable, item_unavailable, address_not_on_file, not_available_in_market, no_saved_card, size_required (size left out, the item comes in several sizes and the person's saved sizes name none or several of them; the message lists the item's sizes)",
      ),
      422: errorResponse(
        "Invalid fields (invalid_request): fields names each, e.g. max_total below max_price, days outside 1 to 30, a size the item does not come in, max_price and drop_percent both or neither (1.9.0), drop_percent outside 1 to 90",
      ),
    },
    call: async ({ caller, body }) => ({ body: await caller.priceWatches.create(body) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-watches",
    operationId: "listPriceWatches",
    procedure: "priceWatches.list",
    input: { query: ZListPriceWatchesQuery },
    output: ZPriceWatchList,
    summary: "The person's price watches, newest first",
    description:
      "Scope purchase:write on a linked-account token. Every watch of the person, whichever of their assistants set it; paginated like GET /products.",
    call: async ({ caller, query }) => ({ body: await caller.priceWatches.list(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-watches/{price_watch_id}",
    operationId: "getPriceWatch",
    procedure: "priceWatches.get",
    input: { params: ZPriceWatchIdParams },
    output: ZPriceWatch,
    summary: "Read one price watch (status, outcome, order_number once it bought)",
    responses: { 404: noWatch },
    call: async ({ caller, params }) => ({ body: await caller.priceWatches.get(params) }),
  }),
  defineOperation({
    id: "DELETE /api/v1/price-watches/{price_watch_id}",
    operationId: "cancelPriceWatch",
    procedure: "priceWatches.cancel",
    input: { params: ZPriceWatchIdParams },
    output: ZPriceWatch,
    outputDescription: "Cancelled; the person was emailed",
    summary:
      "Cancel an active price watch (status cancelled, outcome cancelled); again: answered as it is",
    responses: {
      404: noWatch,
      409: errorResponse(
        "watch_closed: it is buying now, bought, needs the person or already ended (with status); a purchase it made is cancelled from its own email",
      ),
    },
    call: async ({ caller, params }) => ({ body: await caller.priceWatches.cancel(params) }),
  }),
  defineOperation({
    id: "POST /api/v1/price-watches/preview",
    operationId: "previewPriceWatch",
    procedure: "priceWatches.preview",
    tool: "preview_price_watch",
    input: { body: ZCreatePriceWatchBody },
    output: ZPriceWatchPreview,
    summary: "Say whether a price watch with this body would buy now, condition by condition",
    description:
      "Scope purchase:write, the same token as POST /price-watches, and the same body (max_price or drop_percent). Sets nothing, stores nothing. " +
      "Answers 200 with would_buy_now (every condition passes) and each condition in a fixed order with the values it compared: item_available, size, max_price (price vs max_price), max_total (the total to the saved address with shipping and tax), assistant, purchases_paused, per_order_limit, spending_room (the 30-day room), agent_checkout, saved_address, market (Quebec), saved_card, " +
      `watch_limit (${maxLiveWatches} live) and already_watching: what POST /price-watches refuses with 409 is a failed condition here. ` +
      "warnings has max_price_below_90_day_low when max_price is below the item's lowest price of the last 90 days.",
    responses: {
      403: errorResponse("insufficient_scope (no purchase:write, or no person on the token)"),
      404: errorResponse("No such item (not_found)"),
      422: errorResponse(
        "Invalid fields (invalid_request), as POST /price-watches: max_price and drop_percent both or neither, max_total below max_price, a size the item does not come in",
      ),
    },
    call: async ({ caller, body }) => ({ body: await caller.priceWatches.preview(body) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-watches/{price_watch_id}/evaluations",
    operationId: "listPriceWatchEvaluations",
    procedure: "priceWatches.evaluations",
    tool: "list_price_watch_evaluations",
    input: { params: ZPriceWatchIdParams, query: ZListPriceWatchesQuery },
    output: ZPriceWatchEvaluationList,
    summary:
      "Each evaluation of a price watch, newest first: the price, the total, the outcome, the condition that failed",
    description:
      "Scope purchase:write on a linked-account token. One row each time a price change made the service evaluate the live watch: evaluated_at, the price it saw, the total to the saved address when it quoted, outcome (bought, not_bought, needs_you, ended) and failed_condition (the first condition of POST /price-watches/preview that failed, expired, or payment). Paginated like GET /price-watches.",
    responses: { 404: noWatch },
    call: async ({ caller, params, query }) => ({
      body: await caller.priceWatches.evaluations({ ...params, ...query }),
    }),
  }),
];
