/** Watches on a search (procedures in server/search-watches; 1.9.0): notify by email, or buy the first new match once. */
import {
  maxLiveSearchWatches,
  searchWatchDays,
  ZCreateSearchWatchBody,
  ZListSearchWatchesQuery,
  ZSearchWatch,
  ZSearchWatchIdParams,
  ZSearchWatchList,
} from "../../search-watches";
import { errorResponse } from "./openapi-parts";
import { defineOperation } from "./operation";

const scopeNote =
  "On a linked-account token: mode notify needs alerts:write, mode buy needs purchase:write (403 insufficient_scope naming the missing one).";
const noWatch = errorResponse("No such search watch of this person (not_found)");

export const searchWatchOperations = [
  defineOperation({
    id: "POST /api/v1/search-watches",
    operationId: "createSearchWatch",
    procedure: "searchWatches.create",
    tool: "create_search_watch",
    input: { body: ZCreateSearchWatchBody },
    output: ZSearchWatch,
    status: 201,
    outputDescription: "Set: status active",
    summary:
      "Watch a search (GET /products' filters): email the person about new matches, or buy the first one once",
    description:
      `${scopeNote} The filters are GET /products' (q, category, size, color, brand, store, min_price, max_price; at least one). ` +
      "A watch triggers when an item starts to match it: a new listing, a price change, or an item available again (a released hold, an expired checkout: back in stock). Only items that can be sold now match, and an item matches a watch once. " +
      "notify: one email naming the new matches at once, at most one email an hour: matches found within the hour come together in one digest when it is up. " +
      "buy (max_total required): the first new match whose total to the saved address (with shipping and tax) is within max_total is bought once through POST /purchases' path (card held, charged 24 hours later unless cancelled from the emailed link; the same limits, saved card and address, direct stores only), then the watch ends fulfilled. " +
      `Lasts days ${searchWatchDays.min} to ${searchWatchDays.max} (default ${searchWatchDays.default}). At most ${maxLiveSearchWatches} live (active or executing) search watches per person (409 too_many_search_watches).`,
    responses: {
      409: errorResponse(
        `No watch set: too_many_search_watches (${maxLiveSearchWatches} live; limit given); for buy also agent_purchases_unavailable, spending_limit_not_set, purchases_paused, over_spending_limit (with limit and room), address_not_on_file, not_available_in_market, no_saved_card`,
      ),
    },
    call: async ({ caller, body }) => ({ body: await caller.searchWatches.create(body) }),
  }),
  defineOperation({
    id: "GET /api/v1/search-watches",
    operationId: "listSearchWatches",
    procedure: "searchWatches.list",
    tool: "list_search_watches",
    input: { query: ZListSearchWatchesQuery },
    output: ZSearchWatchList,
    summary: "The person's search watches, newest first",
    description: `${scopeNote} Either scope lists every search watch of the person, whichever app set it; paginated like GET /products.`,
    call: async ({ caller, query }) => ({ body: await caller.searchWatches.list(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/search-watches/{search_watch_id}",
    operationId: "getSearchWatch",
    procedure: "searchWatches.get",
    tool: "get_search_watch",
    input: { params: ZSearchWatchIdParams },
    output: ZSearchWatch,
    summary: "Read one search watch (status, matches, the purchase of a buy)",
    responses: { 404: noWatch },
    call: async ({ caller, params }) => ({ body: await caller.searchWatches.get(params) }),
  }),
  defineOperation({
    id: "DELETE /api/v1/search-watches/{search_watch_id}",
    operationId: "cancelSearchWatch",
    procedure: "searchWatches.cancel",
    tool: "cancel_search_watch",
    input: { params: ZSearchWatchIdParams },
    output: ZSearchWatch,
    outputDescription: "Cancelled (or as it ended)",
    summary:
      "Cancel an active search watch (status cancelled); one that ended or is buying is answered as it is",
    responses: { 404: noWatch },
    call: async ({ caller, params }) => ({ body: await caller.searchWatches.cancel(params) }),
  }),
];
