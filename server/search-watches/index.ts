/**
 * What other capabilities and the edges may use of search-watches: everything else in the folder
 * is its own. It owns `search_watches` and `search_watch_matches`; only its store queries them.
 */
export { searchWatchHandler } from "./match-on-catalogue-change";
export {
  ZCreateSearchWatchBody,
  ZListSearchWatchesQuery,
  ZSearchWatch,
  ZSearchWatchIdParams,
  ZSearchWatchList,
} from "./search-watch.schema";
export { searchWatchesRouter } from "./procedures";
// The person's watches a page at a time, and their cancel (the dashboard's /account/search-watches).
export { pageOfPersonSearchWatches } from "./read-search-watches";
export { cancelOwnSearchWatch } from "./cancel-search-watch";
export { isCancellableSearchWatch, maxLiveSearchWatches, searchWatchDays } from "./states";
export { runSearchWatchWork } from "./search-watch-jobs";
