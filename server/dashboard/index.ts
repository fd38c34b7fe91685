/** What the edges may use of the dashboard: its routers. */
export type { TMyAlert, TMyAlertsResponse } from "./my-alerts";
export type { TMyWatch, TMyWatchesResponse } from "./my-price-watches";
export type { TMySearchWatch, TMySearchWatchesResponse } from "./my-search-watches";
export type { TMyWatchGroup, TMyWatchGroupsResponse } from "./my-watch-groups";
export type { TMyPurchase, TMyPurchaseItem, TMyPurchasesResponse } from "./my-purchases.schema";
export { accountRouter, dashboardProcedures } from "./procedures";
