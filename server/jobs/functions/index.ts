/** Every Inngest function the service serves (app/api/inngest). */
import { chargePurchase } from "./charge-purchase";
import { deliverWebhooks } from "./deliver-webhooks";
import { expireCheckout } from "./expire-checkout";
import { processPriceChangesFunction } from "./process-price-changes";
import { expirePriceWatch } from "./expire-price-watch";

export const functions = [
  expireCheckout,
  chargePurchase,
  processPriceChangesFunction,
  expirePriceWatch,
  deliverWebhooks,
];
