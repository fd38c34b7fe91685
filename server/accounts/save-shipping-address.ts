/** The shopper saves (or replaces) their shipping address; the postal code is normalised and must fit the province. */
import { ZCanadianAddressSchema } from "../core/address";
import { shopperProcedure } from "../platform/trpc/procedures";
import { addressSelect, toShippingAddress } from "./account.queries";

export const saveShippingAddress = shopperProcedure
  .input(ZCanadianAddressSchema)
  .mutation(async ({ ctx, input }) => {
    const data = {
      name: input.name,
      line1: input.line1,
      line2: input.line2,
      city: input.city,
      province: input.province,
      postalCode: input.postal_code,
      country: input.country,
      phone: input.phone,
    };
    const address = await ctx.db.shippingAddress.upsert({
      where: { personId: ctx.personId },
      create: { personId: ctx.personId, ...data },
      update: data,
      select: addressSelect,
    });
    return toShippingAddress(address);
  });
