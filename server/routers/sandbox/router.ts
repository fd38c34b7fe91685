import { router } from "../../trpc/init";
import { expireCheckoutNow } from "./expire-checkout";
import { advancePurchase, resolvePurchase } from "./purchases";
import { shipOrder } from "./ship-order";

export const sandboxRouter = router({ shipOrder, expireCheckoutNow, advancePurchase, resolvePurchase });
