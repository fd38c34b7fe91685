/** What other capabilities and the edges may use of price-watches: everything else in the folder is its own. */
export { priceWatchPageRouter } from "./cancel-page-procedures";
export { cancelWatch } from "./cancel-watch";
export { expirePriceWatch } from "./expire-price-watch-job";
export { priceWatchHandler } from "./price-watch-handler";
export { priceWatchSelect, toWirePriceWatch } from "./price-watch-view";
export {
  ZCreatePriceWatchBody,
  ZListPriceWatchesQuery,
  ZPriceWatch,
  ZPriceWatchIdParams,
  ZPriceWatchList,
} from "./price-watch.schema";
export { priceWatchesRouter } from "./procedures";
export { maxLiveWatches, watchDays } from "./states";
export { expireDueWatches, resumeExecutingWatches } from "./watch-jobs";
export { endWatchesOutOfStanding, notifyWatchesEnded } from "./watch-standing";
