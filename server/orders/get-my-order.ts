/**
 * GET /me/orders/{order_number}: one of the linked person's orders with its tracking. Another
 * person's order, or no such order, is 404 not_found (never 403). Needs orders:read on a token the
 * person granted.
 */
import { findPersonOrder } from "../checkout";
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { linkedPersonId } from "./linked-person";
import { refundedByOrder, toWireOrder } from "./order-view";
import { ZGetMyOrderRequest, ZOrder } from "./orders.schema";

export const getMyOrder = procedure({ caller: "person", scope: "orders:read" })
  .input(ZGetMyOrderRequest)
  .output(ZOrder)
  .query(async ({ ctx, input }) => {
    const order = await findPersonOrder(ctx.db, {
      personId: linkedPersonId(ctx.actor),
      number: input.order_number,
    });
    if (!order)
      throw new AppError("not_found", {
        message: `No order ${input.order_number} on this account.`,
      });
    const refunded = await refundedByOrder(ctx.db, [order.id]);
    return toWireOrder(order, refunded.get(order.id) ?? 0);
  });
