import { accountProcedures, savedCardProcedures } from "../accounts";
import { router } from "../platform/trpc/init";
import { connectedApps, disconnectApp } from "./connected-apps";
import { getSpendingSettings } from "./get-spending-settings";
import { listMyAlerts, stopMyAlert } from "./my-alerts";
import { cancelMyPurchase, listMyPurchases } from "./my-purchases";
import { cancelMyWatch, listMyWatches } from "./my-price-watches";
import { cancelMySearchWatch, listMySearchWatches } from "./my-search-watches";
import { cancelMyWatchGroup, listMyWatchGroups } from "./my-watch-groups";
import { setPurchasesPaused } from "./set-purchases-paused";
import { setSpendingLimits } from "./set-spending-limits";

/** The dashboard's procedures (spending limits, saved card, assistant purchases, price watches and their any-of groups, price alerts, search watches): the only ones the browser reaches at /api/trpc (server/edges/trpc/dashboard.ts). */
export const dashboardProcedures = {
  getSpendingSettings,
  setSpendingLimits,
  setPurchasesPaused,
  ...savedCardProcedures,
  listMyPurchases,
  cancelMyPurchase,
  listMyWatches,
  cancelMyWatch,
  listMyWatchGroups,
  cancelMyWatchGroup,
  listMySearchWatches,
  cancelMySearchWatch,
  listMyAlerts,
  stopMyAlert,
};

/** The `account` router: the person's account, their connected apps and the dashboard. */
export const accountRouter = router({
  ...accountProcedures,
  connectedApps,
  disconnectApp,
  ...dashboardProcedures,
});
