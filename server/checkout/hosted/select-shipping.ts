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
import { inTransaction } from "../../platform/db";
import { countAttemptsInFlight } from "../store/borrowed";
import { readCheckoutQuote, writeSelections } from "../store/checkouts";
import { ZSelectShipping } from "./page.schema";
import { lockCheckout } from "./payment-attempt";

export const selectShipping = publicProcedure
  .input(ZSelectShipping)
  .mutation(async ({ ctx, input }) => {
    await inTransaction(ctx.db, async (tx) => {
      const checkout = await lockCheckout(tx, input.id);
      if (checkout.status !== "awaiting_payment")
        throw new AppError("checkout_closed", {
          message: `This checkout is ${checkout.status.replace("_", " ")}.`,
        });
      const busy = await countAttemptsInFlight(tx, input.id);
      if (busy)
        throw new AppError("payment_in_progress", {
          message: "Finish or restart the payment before changing shipping.",
        });
      const { selections, quote } = await readCheckoutQuote(tx, input.id);
      const snapshot = quote.snapshot as unknown as QuoteSnapshot;
      const next = resolveSelections(snapshot, {
        ...(selections as Selections),
        [input.store]: input.option,
      });
      await writeSelections(tx, input.id, { selections: next, ...snapshotTotals(snapshot, next) });
    });
    return { ok: true as const };
  });
