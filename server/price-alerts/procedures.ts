import { router } from "../platform/trpc/init";
import { createPriceAlert } from "./create-price-alert";
import { listPriceAlerts } from "./list-price-alerts";
import { stopPriceAlert } from "./stop-price-alert";

export const priceAlertsRouter = router({
  create: createPriceAlert,
  list: listPriceAlerts,
  stop: stopPriceAlert,
});
