/** What other capabilities and the edges may use of price-alerts: everything else in the folder is its own. */
export { priceAlertHandler } from "./alert-on-price-change";
export {
  ZCreatePriceAlertBody,
  ZListPriceAlertsQuery,
  ZPriceAlert,
  ZPriceAlertIdParams,
  ZPriceAlertList,
  liveAlertsPerPerson,
} from "./price-alert.schema";
export { listPriceAlertsWithItems, stopPriceAlert } from "./price-alerts";
export { priceAlertsRouter } from "./procedures";
