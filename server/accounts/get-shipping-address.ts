/** GET /me/shipping-address: the saved address (address:read); 404 when none is saved. */
import { ZCanadianAddressResponse } from "../core/address";
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { addressSelect, toShippingAddress } from "./account.queries";

export const getShippingAddress = procedure({
  caller: "person",
  scope: "address:read",
  shopper: true,
})
  .output(ZCanadianAddressResponse)
  .query(async ({ ctx }) => {
    const address = await ctx.db.shippingAddress.findUnique({
      where: { personId: ctx.personId },
      select: addressSelect,
    });
    if (!address)
      throw new AppError("not_found", { message: "No shipping address is saved on this account." });
    return toShippingAddress(address);
  });
