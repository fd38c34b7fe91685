import { router } from "../../trpc/init";
import { expireCheckoutNow } from "./expire-checkout";
import { shipOrder } from "./ship-order";

export const sandboxRouter = router({ shipOrder, expireCheckoutNow });
