import { router } from "../platform/trpc/init";
import { cancelSearchWatch } from "./cancel-search-watch";
import { createSearchWatch } from "./create-search-watch";
import { getSearchWatch, listSearchWatches } from "./read-search-watches";

export const searchWatchesRouter = router({
  create: createSearchWatch,
  list: listSearchWatches,
  get: getSearchWatch,
  cancel: cancelSearchWatch,
});
