/** GET /checkout/sessions/{checkout_id}: status, totals per store and, once paid, each store's order and tracking. */
import { procedure } from "../platform/trpc/procedures";
import { toCheckoutDetail } from "./checkout-view";
import { findOwnCheckout } from "./ownership";
import { ZCheckoutDetail, ZCheckoutIdParams } from "./session.schema";

export const orderSummarySelect = {
  storeId: true,
  number: true,
  fulfilment: true,
  carrier: true,
  trackingNumber: true,
  shippedAt: true,
} as const;

export const getSession = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCheckoutIdParams)
  .output(ZCheckoutDetail)
  .query(async ({ ctx, input }) => {
    const checkout = await findOwnCheckout(ctx, input.checkout_id);
    const orders =
      checkout.status === "paid"
        ? await ctx.db.order.findMany({
            where: { checkoutId: checkout.id },
            select: orderSummarySelect,
          })
        : [];
    return toCheckoutDetail(checkout, orders);
  });
