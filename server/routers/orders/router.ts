import { router } from "../../trpc/init";
import { listMyOrders } from "./list-my-orders";

export const ordersRouter = router({ listMyOrders });
