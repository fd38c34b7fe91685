/** The shopper removes their saved shipping address (a no-op when none is saved). */
import { shopperProcedure } from "../platform/trpc/procedures";

export const removeShippingAddress = shopperProcedure.mutation(async ({ ctx }) => {
  await ctx.db.shippingAddress.deleteMany({ where: { personId: ctx.personId } });
  return { removed: true };
});
