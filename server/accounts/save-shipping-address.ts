/** The shopper saves (or replaces) their shipping address; the postal code is normalised and must fit the province. */
import { ZCanadianAddressSchema } from "../core/address";
import { shopperProcedure } from "../platform/trpc/procedures";
import { toShippingAddress } from "./account-views";
import { upsertShippingAddress } from "./store/shipping-addresses";

export const saveShippingAddress = shopperProcedure
  .input(ZCanadianAddressSchema)
  .mutation(async ({ ctx, input }) => {
    const address = await upsertShippingAddress(ctx.db, ctx.personId, {
      name: input.name,
      line1: input.line1,
      line2: input.line2,
      city: input.city,
      province: input.province,
      postalCode: input.postal_code,
      country: input.country,
      phone: input.phone,
    });
    return toShippingAddress(address);
  });
