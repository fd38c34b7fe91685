/** What the edges may use of the dashboard: its routers. */
export type { TMyAlert, TMyAlertsResponse } from "./my-alerts";
export type { TMyWatch, TMyWatchesResponse } from "./my-price-watches";
export type { TMyPurchase, TMyPurchaseItem, TMyPurchasesResponse } from "./my-purchases.schema";
export { accountRouter, dashboardProcedures } from "./procedures";
