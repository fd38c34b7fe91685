/** Every Inngest function the service serves (app/api/inngest). */
import { chargePurchase } from "../../purchases";
import { deliverWebhooks } from "../../partners";
import { expireCheckout } from "../../checkout";
import { processPriceChangesFunction } from "../../price-changes";
import { expirePriceWatch } from "../../price-watches";
import { reconcileDays } from "../../reconciliation";

export const functions = [
  expireCheckout,
  chargePurchase,
  processPriceChangesFunction,
  expirePriceWatch,
  deliverWebhooks,
  reconcileDays,
];
