import { router } from "../../platform/trpc/init";
import { cancelPriceWatchGroup } from "./cancel-price-watch-group";
import { createPriceWatchGroup } from "./create-price-watch-group";
import { getPriceWatchGroup, listPriceWatchGroups } from "./read-price-watch-groups";

export const priceWatchGroupsRouter = router({
  create: createPriceWatchGroup,
  list: listPriceWatchGroups,
  get: getPriceWatchGroup,
  cancel: cancelPriceWatchGroup,
});
