/** What other capabilities and the edges may use of orders: everything else in the folder is its own. */
export {
  ZGetMyOrderRequest,
  ZListMyOrdersRequest,
  ZListMyOrdersResponse,
  ZOrder,
} from "./orders.schema";
export { ordersRouter } from "./procedures";
