/** OpenAPI paths of price alerts (1.6.0). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { liveAlertsPerPerson, ZCreatePriceAlertBody, ZListPriceAlertsQuery, ZPriceAlert, ZPriceAlertIdParams, ZPriceAlertList } from "./price-alert.schema";

const security = [{ oauth2: ["alerts:write"] }];
const scopeNote =
  "Scope alerts:write, on a linked-account token the person granted (they tick it on the consent page; persons who connected the app before 1.6.0 reconnect to grant it). A client-credentials token, or one without the scope, gets 403 insufficient_scope.";

export const priceAlertsPaths: ZodOpenApiPathsObject = {
  "/price-alerts": {
    post: {
      operationId: "createPriceAlert",
      summary: "Email the person once when an item's price drops to a target; never buys",
      description:
        `${scopeNote} Only for stores that offer alerts (the store setting is on unless its owner turned it off). When the item's price is at or under target_price, the person gets exactly one email and the alert ends (notified). ` +
        `One live alert per person and item; at most ${liveAlertsPerPerson} live alerts per person. Live alerts count in every item's price_watchers.`,
      security,
      requestBody: { required: true, content: { "application/json": { schema: ZCreatePriceAlertBody } } },
      responses: {
        ...commonErrors,
        201: ok(ZPriceAlert, "Set: status active"),
        404: errorResponse("No such item for sale (not_found)"),
        409: errorResponse(
          `Refused, no alert set: store_alerts_unavailable (the item's store does not offer price alerts), already_at_price (the item is already at or under target_price; current_price given), already_alerting (a live alert on this item exists; its price_alert_id given), too_many_alerts (${liveAlertsPerPerson} live; limit given), item_unavailable (the item has sold)`,
        ),
        413: errorResponse("Body over 64 KiB (payload_too_large)"),
        415: errorResponse("Body is not JSON (unsupported_media_type)"),
      },
    },
    get: {
      operationId: "listPriceAlerts",
      summary: "The person's price alerts, newest first",
      description: `${scopeNote} Every alert of the person (all apps), live and ended, paginated like search.`,
      security,
      requestParams: { query: ZListPriceAlertsQuery },
      responses: { 200: ok(ZPriceAlertList), ...commonErrors },
    },
  },
  "/price-alerts/{price_alert_id}": {
    delete: {
      operationId: "stopPriceAlert",
      summary: "Stop a price alert",
      description: `${scopeNote} An active alert moves to stopped; an alert that already ended is returned as it is. Another person's alert is 404.`,
      security,
      requestParams: { path: ZPriceAlertIdParams },
      responses: { 200: ok(ZPriceAlert, "The alert, stopped (or as it ended)"), 404: errorResponse("No such alert for this person (not_found)"), ...commonErrors },
    },
  },
};
