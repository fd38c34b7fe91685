/** Price-drop alerts on a linked person's behalf (procedures in server/routers/price-alerts; 1.6.0). */
import { errorResponse } from "./openapi-parts";
import {
  liveAlertsPerPerson,
  ZCreatePriceAlertBody,
  ZListPriceAlertsQuery,
  ZPriceAlert,
  ZPriceAlertIdParams,
  ZPriceAlertList,
} from "../../price-alerts";
import { defineOperation } from "./operation";

const scopeNote =
  "Scope alerts:write, on a linked-account token the person granted (they tick it on the consent page; persons who connected the app before 1.6.0 reconnect to grant it). A client-credentials token, or one without the scope, gets 403 insufficient_scope.";

export const priceAlertOperations = [
  defineOperation({
    id: "POST /api/v1/price-alerts",
    operationId: "createPriceAlert",
    procedure: "priceAlerts.create",
    input: { body: ZCreatePriceAlertBody },
    output: ZPriceAlert,
    status: 201,
    outputDescription: "Set: status active",
    summary: "Email the person once when an item's price drops to a target; never buys",
    description:
      `${scopeNote} Only for stores that offer alerts (the store setting is on unless its owner turned it off). When the item's price is at or under target_price, the person gets exactly one email and the alert ends (notified). ` +
      "Since 1.9.0 drop_percent (1 to 90) may be given instead of target_price: the target is that much below the price now, rounded down to the cent, and is kept as target_price (422 when both or neither are given). " +
      `One live alert per person and item; at most ${liveAlertsPerPerson} live alerts per person. Live alerts count in every item's price_watchers.`,
    responses: {
      404: errorResponse("No such item for sale (not_found)"),
      409: errorResponse(
        `Refused, no alert set: store_alerts_unavailable (the item's store does not offer price alerts), already_at_price (the item is already at or under target_price; current_price given), already_alerting (a live alert on this item exists; its price_alert_id given), too_many_alerts (${liveAlertsPerPerson} live; limit given), item_unavailable (the item has sold)`,
      ),
    },
    call: async ({ caller, body }) => ({ body: await caller.priceAlerts.create(body) }),
  }),
  defineOperation({
    id: "GET /api/v1/price-alerts",
    operationId: "listPriceAlerts",
    procedure: "priceAlerts.list",
    input: { query: ZListPriceAlertsQuery },
    output: ZPriceAlertList,
    summary: "The person's price alerts, newest first",
    description: `${scopeNote} Every alert of the person (all apps), live and ended, paginated like search.`,
    call: async ({ caller, query }) => ({ body: await caller.priceAlerts.list(query) }),
  }),
  defineOperation({
    id: "DELETE /api/v1/price-alerts/{price_alert_id}",
    operationId: "stopPriceAlert",
    procedure: "priceAlerts.stop",
    input: { params: ZPriceAlertIdParams },
    output: ZPriceAlert,
    outputDescription: "The alert, stopped (or as it ended)",
    summary: "Stop a price alert",
    description: `${scopeNote} An active alert moves to stopped; an alert that already ended is returned as it is. Another person's alert is 404.`,
    responses: { 404: errorResponse("No such alert for this person (not_found)") },
    call: async ({ caller, params }) => ({ body: await caller.priceAlerts.stop(params) }),
  }),
];
