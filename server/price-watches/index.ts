/**
 * What other capabilities and the edges may use of price-watches: everything else in the folder is
 * its own. It owns the `price_watches` table; only its store (store/) queries it (ADR 0103).
 */
export { priceWatchPageRouter } from "./cancel-page-procedures";
export { cancelWatch } from "./cancel-watch";
export { expirePriceWatch } from "./expire-price-watch-job";
export { priceWatchHandler } from "./price-watch-handler";
export { toWirePriceWatch, watchedItemOf } from "./price-watch-view";
export { dropTargetCents } from "./drop-percent";
export {
  ZCreatePriceWatchBody,
  ZListPriceWatchesQuery,
  ZPriceWatchEvaluation,
  ZPriceWatchEvaluationList,
  ZPriceWatchPreview,
  ZPriceWatch,
  ZPriceWatchIdParams,
  ZPriceWatchList,
} from "./price-watch.schema";
export { priceWatchesRouter } from "./procedures";
// Any-of watch groups (POST /price-watch-groups, issue 29 §4).
export { priceWatchGroupsRouter } from "./groups/procedures";
export {
  ZCreatePriceWatchGroupBody,
  ZListPriceWatchGroupsQuery,
  ZPriceWatchGroup,
  ZPriceWatchGroupIdParams,
  ZPriceWatchGroupList,
} from "./groups/price-watch-group.schema";
export { isAnyPriceWithinTotal, isCancellableGroup, maxAlternatives } from "./groups/group-states";
// The person's groups a page at a time, and their cancel (the dashboard's /account/watch-groups).
export { pageOfPersonGroups } from "./groups/read-price-watch-groups";
export { toWirePriceWatchGroup } from "./groups/price-watch-group-view";
export { cancelOwnGroup } from "./groups/cancel-price-watch-group";
// The person's watches a page at a time, with their items and assistants' ids (the dashboard's list).
export { pageOfPersonWatches } from "./read-price-watches";
export { maxLiveWatches, watchDays } from "./states";
export { expireDueWatches, resumeExecutingWatches } from "./watch-jobs";
export { endWatchesOutOfStanding, notifyWatchesEnded } from "./watch-standing";
// The price-watches store's functions other capabilities call (ADR 0103): whether a watch is the
// person's (the dashboard's cancel).
export { isWatchOfPerson } from "./store/watches";
