import { router } from "../platform/trpc/init";
import { expireCheckoutNow } from "./expire-checkout";
import { advancePurchase, resolvePurchase } from "./purchases";
import { setItemPriceNow } from "./set-item-price";
import { listItemNow } from "./list-item";
import { shipOrder } from "./ship-order";

export const sandboxRouter = router({
  shipOrder,
  expireCheckoutNow,
  advancePurchase,
  resolvePurchase,
  setItemPrice: setItemPriceNow,
  listItem: listItemNow,
});
