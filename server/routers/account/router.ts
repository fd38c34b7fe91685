import { router } from "../../trpc/init";
import { connectedApps, disconnectApp } from "./connected-apps";
import { getMe } from "./get-me";
import { getShippingAddress } from "./get-shipping-address";
import { removeShippingAddress } from "./remove-shipping-address";
import { saveShippingAddress } from "./save-shipping-address";
import { updateProfile } from "./update-profile";
import { updateSizes } from "./update-sizes";

export const accountRouter = router({ getMe, getShippingAddress, updateProfile, updateSizes, saveShippingAddress, removeShippingAddress, connectedApps, disconnectApp });
