import { router } from "../platform/trpc/init";
import { connectedApps, disconnectApp } from "./connected-apps";
import { getMe } from "./get-me";
import { getSavedCard } from "./get-saved-card";
import { getShippingAddress } from "./get-shipping-address";
import { getSpendingSettings } from "./get-spending-settings";
import { cancelMyPurchase, listMyPurchases } from "./my-purchases";
import { listMyAlerts, stopMyAlert } from "./my-alerts";
import { cancelMyWatch, listMyWatches } from "./my-price-watches";
import { completeCardSetup, startCardSetup } from "./card-setup";
import { removeCard } from "./remove-card";
import { removeShippingAddress } from "./remove-shipping-address";
import { saveCard } from "./save-card";
import { saveShippingAddress } from "./save-shipping-address";
import { setPurchasesPaused } from "./set-purchases-paused";
import { setSpendingLimits } from "./set-spending-limits";
import { updateProfile } from "./update-profile";
import { updateSizes } from "./update-sizes";

/** The dashboard's procedures (spending limits, saved card, assistant purchases, price watches, price alerts): the only ones the browser reaches at /api/trpc (server/edges/trpc/dashboard.ts). */
export const dashboardProcedures = {
  getSpendingSettings,
  setSpendingLimits,
  setPurchasesPaused,
  getSavedCard,
  saveCard,
  removeCard,
  startCardSetup,
  completeCardSetup,
  listMyPurchases,
  cancelMyPurchase,
  listMyWatches,
  cancelMyWatch,
  listMyAlerts,
  stopMyAlert,
};

export const accountRouter = router({
  getMe,
  getShippingAddress,
  updateProfile,
  updateSizes,
  saveShippingAddress,
  removeShippingAddress,
  connectedApps,
  disconnectApp,
  ...dashboardProcedures,
});
