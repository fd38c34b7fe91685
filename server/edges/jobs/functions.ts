/** Every Inngest function the service serves (app/api/inngest). */
import { chargePurchase } from "../../purchases/charge-purchase-job";
import { deliverWebhooks } from "../../partners/webhooks/deliver-webhooks-job";
import { expireCheckout } from "../../checkout/expire-checkout-job";
import { processPriceChangesFunction } from "../../price-changes/process-price-changes-job";
import { expirePriceWatch } from "../../price-watches/expire-price-watch-job";

export const functions = [
  expireCheckout,
  chargePurchase,
  processPriceChangesFunction,
  expirePriceWatch,
  deliverWebhooks,
];
