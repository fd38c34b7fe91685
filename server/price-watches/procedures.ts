import { router } from "../platform/trpc/init";
import { cancelPriceWatch } from "./cancel-price-watch";
import { createPriceWatch } from "./create-price-watch";
import { getPriceWatch, listPriceWatches } from "./read-price-watches";
import { previewPriceWatch } from "./preview-price-watch";
import { listPriceWatchEvaluations } from "./list-watch-evaluations";

export const priceWatchesRouter = router({
  create: createPriceWatch,
  list: listPriceWatches,
  get: getPriceWatch,
  cancel: cancelPriceWatch,
  preview: previewPriceWatch,
  evaluations: listPriceWatchEvaluations,
});
