/**
 * The shopper pauses or resumes assistant purchases. Idempotent: the time of the change moves only
 * when the switch actually flips (one conditional update, so two tabs cannot both record a change).
 * A pause ends the person's active price watches in the same transaction (outcome purchases_paused).
 */
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSetPurchasesPausedInput, ZSpendingSettingsResponse } from "../accounts";
import { rowToSpendingSettingsResponse, spendingSettingsSelect } from "../accounts";

export const setPurchasesPaused = shopperProcedure
  .input(ZSetPurchasesPausedInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const ended = await ctx.db.$transaction(async (tx) => {
      const { count } = await tx.person.updateMany({
        where: { id: ctx.personId, purchasesPaused: !input.paused },
        data: { purchasesPaused: input.paused, purchasesPausedChangedAt: now },
      });
      return count && input.paused
        ? endWatchesOutOfStanding(tx, { personId: ctx.personId }, now)
        : [];
    });
    notifyWatchesEnded(ended);
    const row = await ctx.db.person.findUniqueOrThrow({
      where: { id: ctx.personId },
      select: spendingSettingsSelect,
    });
    return rowToSpendingSettingsResponse(row);
  });
