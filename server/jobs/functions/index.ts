/** Every Inngest function the service serves (app/api/inngest). */
import { chargePurchase } from "./charge-purchase";
import { deliverWebhooks } from "./deliver-webhooks";
import { expireCheckout } from "./expire-checkout";
import { processPriceChangesFunction } from "./process-price-changes";

export const functions = [expireCheckout, chargePurchase, processPriceChangesFunction, deliverWebhooks];
