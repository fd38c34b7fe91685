/** Any-of price watch groups (procedures in server/price-watches/groups; 1.9.0), also MCP tools on /mcp/account. */
import { maxAlternatives, maxLiveWatches, watchDays } from "../../price-watches";
import {
  ZCreatePriceWatchGroupBody,
  ZListPriceWatchGroupsQuery,
  ZPriceWatchGroup,
  ZPriceWatchGroupIdParams,
  ZPriceWatchGroupList,
} from "../../price-watches";
import { errorResponse } from "./openapi-parts";
import { defineOperation } from "./operation";

const noGroup = errorResponse("No such price watch group of this person (not_found)");

export const priceWatchGroupOperations = [
  defineOperation({
    id: "POST /api/v1/price-watch-groups",
    tool: "create_price_watch_group",
    operationId: "createPriceWatchGroup",
    procedure: "priceWatchGroups.create",
    input: { body: ZCreatePriceWatchGroupBody },
    output: ZPriceWatchGroup,
    status: 201,
    outputDescription:
      "Set: status active, each alternative an active price watch; the person was emailed once, with a cancel link",
    summary: `Buy the first of up to ${maxAlternatives} items that qualifies, once, within one max_total`,
    description:
      "Scope purchase:write, with the rules of POST /price-watches for each alternative (the item, its size, its store direct, not already at its price, one live watch per item) and the person's once (the assistant and its switch, limits set and not paused, a saved card and a saved address outside Quebec, max_total within the limits). " +
      `An alternative qualifies when its price is at most its own max_price (if given) and a fresh quote for the saved address is within max_total; the first that qualifies is bought once through POST /purchases' path (card held, charged 24 hours later unless cancelled) and every other alternative ends at once (cancelled, outcome fulfilled_by_alternative). Never two purchases from one group, also when several alternatives drop at once. ` +
      `One expiry (days ${watchDays.min} to ${watchDays.max}, default ${watchDays.default}). The group counts as one of the ${maxLiveWatches} live watches. Every refusal is 409 and sets nothing.`,
    responses: {
      403: errorResponse("insufficient_scope (no purchase:write, or no person on the token)"),
      404: errorResponse("No such item (not_found)"),
      409: errorResponse(
        "No group set: the codes of POST /price-watches (already_at_price, already_watching, too_many_watches, store_requires_checkout_link, over_spending_limit, spending_limit_not_set, purchases_paused, agent_purchases_unavailable, item_unavailable, address_not_on_file, not_available_in_market, no_saved_card, size_required), for the first alternative refused",
      ),
      422: errorResponse(
        "Invalid fields (invalid_request): e.g. no or more than 10 alternatives, an item twice, an alternative's max_price over max_total, days outside 1 to 30, a size the item does not come in (alternatives.N.size)",
      ),
    },
    call: async ({ caller, body }) => ({ body: await caller.priceWatchGroups.create(body) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-watch-groups",
    tool: "list_price_watch_groups",
    operationId: "listPriceWatchGroups",
    procedure: "priceWatchGroups.list",
    input: { query: ZListPriceWatchGroupsQuery },
    output: ZPriceWatchGroupList,
    summary: "The person's any-of price watch groups, newest first, with their alternatives",
    description:
      "Scope purchase:write on a linked-account token. Every group of the person, whichever of their assistants set it; paginated like GET /products.",
    call: async ({ caller, query }) => ({ body: await caller.priceWatchGroups.list(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-watch-groups/{price_watch_group_id}",
    tool: "get_price_watch_group",
    operationId: "getPriceWatchGroup",
    procedure: "priceWatchGroups.get",
    input: { params: ZPriceWatchGroupIdParams },
    output: ZPriceWatchGroup,
    summary:
      "Read one price watch group (status, outcome, its alternatives, the purchase once it bought)",
    responses: { 404: noGroup },
    call: async ({ caller, params }) => ({ body: await caller.priceWatchGroups.get(params) }),
  }),
  defineOperation({
    id: "DELETE /api/v1/price-watch-groups/{price_watch_group_id}",
    tool: "cancel_price_watch_group",
    operationId: "cancelPriceWatchGroup",
    procedure: "priceWatchGroups.cancel",
    input: { params: ZPriceWatchGroupIdParams },
    output: ZPriceWatchGroup,
    outputDescription: "Cancelled with all its alternatives; the person was emailed",
    summary:
      "Cancel an active price watch group and all its alternatives (outcome cancelled); again: answered as it is",
    responses: {
      404: noGroup,
      409: errorResponse(
        "watch_closed: one alternative is buying now, it bought, needs the person or already ended (with status)",
      ),
    },
    call: async ({ caller, params }) => ({ body: await caller.priceWatchGroups.cancel(params) }),
  }),
];
