/**
 * The shopper sets both spending limits (CAD, per order and per rolling 30 days). Session only:
 * an app's token can never change them. A per-order limit below an active price watch's max_total
 * ends that watch in the same transaction (outcome limits_lowered).
 */
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSetSpendingLimitsInput, ZSpendingSettingsResponse } from "../accounts";
import { rowToSpendingSettingsResponse, spendingSettingsSelect } from "../accounts";

export const setSpendingLimits = shopperProcedure
  .input(ZSetSpendingLimitsInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const { row, ended } = await ctx.db.$transaction(async (tx) => {
      const row = await tx.person.update({
        where: { id: ctx.personId },
        data: {
          spendingLimitPerOrderCents: input.limit_per_order,
          spendingLimitPer30DaysCents: input.limit_per_30_days,
        },
        select: spendingSettingsSelect,
      });
      return { row, ended: await endWatchesOutOfStanding(tx, { personId: ctx.personId }, now) };
    });
    notifyWatchesEnded(ended);
    return rowToSpendingSettingsResponse(row);
  });
