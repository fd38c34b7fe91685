import { router } from "../../trpc/init";
import { connectedApps, disconnectApp } from "./connected-apps";
import { getMe } from "./get-me";
import { getShippingAddress } from "./get-shipping-address";
import { getSpendingSettings } from "./get-spending-settings";
import { removeShippingAddress } from "./remove-shipping-address";
import { saveShippingAddress } from "./save-shipping-address";
import { setPurchasesPaused } from "./set-purchases-paused";
import { setSpendingLimits } from "./set-spending-limits";
import { updateProfile } from "./update-profile";
import { updateSizes } from "./update-sizes";

/** The spending-limit dashboard's procedures: the only ones the browser reaches at /api/trpc (server/trpc/dashboard.ts). */
export const spendingProcedures = { getSpendingSettings, setSpendingLimits, setPurchasesPaused };

export const accountRouter = router({
  getMe, getShippingAddress, updateProfile, updateSizes, saveShippingAddress, removeShippingAddress, connectedApps, disconnectApp,
  ...spendingProcedures,
});
