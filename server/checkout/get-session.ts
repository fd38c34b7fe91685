/** GET /checkout/sessions/{checkout_id}: status, totals per store and, once paid, each store's order and tracking. */
import { procedure } from "../platform/trpc/procedures";
import { toCheckoutDetail } from "./checkout-view";
import { findOwnCheckout } from "./ownership";
import { ZCheckoutDetail, ZCheckoutIdParams } from "./session.schema";
import { ordersOfCheckout } from "./store/orders";

export const getSession = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCheckoutIdParams)
  .output(ZCheckoutDetail)
  .query(async ({ ctx, input }) => {
    const checkout = await findOwnCheckout(ctx, input.checkout_id);
    const orders = checkout.status === "paid" ? await ordersOfCheckout(ctx.db, checkout.id) : [];
    return toCheckoutDetail(checkout, orders);
  });
