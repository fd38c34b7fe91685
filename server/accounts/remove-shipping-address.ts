/** The shopper removes their saved shipping address (a no-op when none is saved). */
import { shopperProcedure } from "../platform/trpc/procedures";
import { deleteShippingAddress } from "./store/shipping-addresses";

export const removeShippingAddress = shopperProcedure.mutation(async ({ ctx }) => {
  await deleteShippingAddress(ctx.db, ctx.personId);
  return { removed: true };
});
