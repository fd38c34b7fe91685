/**
 * The shopper pauses or resumes assistant purchases. Idempotent: the time of the change moves only
 * when the switch actually flips (one conditional update, so two tabs cannot both record a change).
 */
import { shopperProcedure } from "../../trpc/procedures";
import { ZSetPurchasesPausedInput, ZSpendingSettingsResponse } from "./account.schema";
import { rowToSpendingSettingsResponse, spendingSettingsSelect } from "./spending.queries";

export const setPurchasesPaused = shopperProcedure
  .input(ZSetPurchasesPausedInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    await ctx.db.person.updateMany({
      where: { id: ctx.personId, purchasesPaused: !input.paused },
      data: { purchasesPaused: input.paused, purchasesPausedChangedAt: ctx.clock.now() },
    });
    const row = await ctx.db.person.findUniqueOrThrow({ where: { id: ctx.personId }, select: spendingSettingsSelect });
    return rowToSpendingSettingsResponse(row);
  });
