/**
 * POST /sandbox/checkouts/{checkout_id}/expire: moves one of the client's checkouts to its due time
 * now and runs the same expiry transition as the sweep and the Inngest function.
 */
import { procedure } from "../platform/trpc/procedures";
import { closeCheckout } from "../checkout";
import { toWireCheckout } from "../checkout";
import { findOwnCheckout } from "../checkout";
import { ZCheckout, ZCheckoutIdParams } from "../checkout";
import { assertSandbox } from "./sandbox-only";
import { makeCheckoutDueNow } from "./store";

export const expireCheckoutNow = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZCheckoutIdParams)
  .output(ZCheckout)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const checkout = await findOwnCheckout(ctx, input.checkout_id);
    if (checkout.status === "awaiting_payment") {
      await makeCheckoutDueNow(ctx.db, { id: checkout.id, now });
      await closeCheckout(ctx.db, { id: checkout.id, to: "expired", now });
    }
    return toWireCheckout(await findOwnCheckout(ctx, checkout.id));
  });
