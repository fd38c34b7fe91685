/**
 * GET /me/orders: the linked person's orders, newest first, each store's order with its items,
 * totals, fulfilment and tracking. Needs orders:read on a token the person granted; a partner's
 * client-credentials token never has a person (403).
 */
import { countPersonOrders, listPersonOrders } from "../checkout";
import { procedure } from "../platform/trpc/procedures";
import { linkedPersonId } from "./linked-person";
import { refundedByOrder, toWireOrder } from "./order-view";
import { ZListMyOrdersRequest, ZListMyOrdersResponse } from "./orders.schema";

export const listMyOrders = procedure({ caller: "person", scope: "orders:read" })
  .input(ZListMyOrdersRequest)
  .output(ZListMyOrdersResponse)
  .query(async ({ ctx, input }) => {
    const personId = linkedPersonId(ctx.actor);
    const [total, orders] = await Promise.all([
      countPersonOrders(ctx.db, personId),
      listPersonOrders(ctx.db, {
        personId,
        skip: (input.page - 1) * input.per_page,
        take: input.per_page,
      }),
    ]);
    const refunded = await refundedByOrder(
      ctx.db,
      orders.map((order) => order.id),
    );
    return {
      data: orders.map((order) => toWireOrder(order, refunded.get(order.id) ?? 0)),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });
