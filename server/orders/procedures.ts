import { router } from "../platform/trpc/init";
import { getMyOrder } from "./get-my-order";
import { listMyOrders } from "./list-my-orders";

export const ordersRouter = router({ listMyOrders, getMyOrder });
