/**
 * POST /checkout/sessions/{checkout_id}/cancel: cancels a checkout awaiting payment and frees its
 * items at once. Cancelling again answers the cancelled checkout; a paid or expired one is 409
 * checkout_closed.
 */
import { AppError } from "../core/errors";
import { notifyCheckoutClosed } from "../platform/jobs/events";
import { procedure } from "../platform/trpc/procedures";
import { closeCheckout } from "./checkout-transitions";
import { toWireCheckout } from "./checkout-view";
import { findOwnCheckout } from "./ownership";
import { ZCheckout, ZCheckoutIdParams } from "./session.schema";

export const cancelSession = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCheckoutIdParams)
  .output(ZCheckout)
  .mutation(async ({ ctx, input }) => {
    const { id } = await findOwnCheckout(ctx, input.checkout_id);
    if (await closeCheckout(ctx.db, { id, to: "cancelled", now: ctx.clock.now() }))
      notifyCheckoutClosed(id);
    const checkout = await findOwnCheckout(ctx, id);
    if (checkout.status !== "cancelled")
      throw new AppError("checkout_closed", {
        message: `The checkout is ${checkout.status} and cannot be cancelled.`,
        details: { status: checkout.status },
      });
    return toWireCheckout(checkout);
  });
