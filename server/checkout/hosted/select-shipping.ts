/**
 * Changes one store's shipping option on a checkout awaiting payment. The new totals are the sum of
 * the precomputed option totals in the quote snapshot; the grand total moves with the row lock held,
 * so a payment attempt never reads half a change.
 */
import { AppError } from "../../core/errors";
import { publicProcedure } from "../../platform/trpc/procedures";
import {
  type QuoteSnapshot,
  resolveSelections,
  type Selections,
  snapshotTotals,
} from "../quote-snapshot";
import { ZSelectShipping } from "./page.schema";
import { lockCheckout } from "./payment-attempt";

export const selectShipping = publicProcedure
  .input(ZSelectShipping)
  .mutation(async ({ ctx, input }) => {
    await ctx.db.$transaction(async (tx) => {
      const checkout = await lockCheckout(tx, input.id);
      if (checkout.status !== "awaiting_payment")
        throw new AppError("checkout_closed", {
          message: `This checkout is ${checkout.status.replace("_", " ")}.`,
        });
      const busy = await tx.payment.count({
        where: { checkoutId: input.id, status: { in: ["authorizing", "requires_action"] } },
      });
      if (busy)
        throw new AppError("payment_in_progress", {
          message: "Finish or restart the payment before changing shipping.",
        });
      const { selections, quote } = await tx.checkout.findUniqueOrThrow({
        where: { id: input.id },
        select: { selections: true, quote: { select: { snapshot: true } } },
      });
      const snapshot = quote.snapshot as unknown as QuoteSnapshot;
      const next = resolveSelections(snapshot, {
        ...(selections as Selections),
        [input.store]: input.option,
      });
      await tx.checkout.update({
        where: { id: input.id },
        data: { selections: next, ...snapshotTotals(snapshot, next) },
      });
    });
    return { ok: true as const };
  });
