import { completeCardSetup, startCardSetup } from "./card-setup";
import { getMe } from "./get-me";
import { getSavedCard } from "./get-saved-card";
import { getShippingAddress } from "./get-shipping-address";
import { getPreferences, setLanguage } from "./language";
import { removeCard } from "./remove-card";
import { removeShippingAddress } from "./remove-shipping-address";
import { saveCard } from "./save-card";
import { saveShippingAddress } from "./save-shipping-address";
import { updateProfile } from "./update-profile";
import { updateSizes } from "./update-sizes";

/** The person's own account: profile, sizes and shipping address (the `account` router, server/dashboard/procedures.ts). */
export const accountProcedures = {
  getMe,
  getShippingAddress,
  updateProfile,
  updateSizes,
  saveShippingAddress,
  removeShippingAddress,
  getPreferences,
  setLanguage,
};

/** The saved card, which the dashboard's card page reaches from the browser. */
export const savedCardProcedures = {
  getSavedCard,
  saveCard,
  removeCard,
  startCardSetup,
  completeCardSetup,
};
