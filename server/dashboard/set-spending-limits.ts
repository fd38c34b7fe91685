/**
 * The shopper sets both spending limits (CAD, per order and per rolling 30 days). Session only:
 * an app's token can never change them. A per-order limit below an active price watch's max_total
 * ends that watch in the same transaction (outcome limits_lowered).
 */
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";
import { inTransaction } from "../platform/db";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSetSpendingLimitsInput, ZSpendingSettingsResponse } from "../accounts";
import { rowToSpendingSettingsResponse, updateSpendingLimits } from "../accounts";

export const setSpendingLimits = shopperProcedure
  .input(ZSetSpendingLimitsInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const { row, ended } = await inTransaction(ctx.db, async (tx) => {
      const row = await updateSpendingLimits(tx, {
        personId: ctx.personId,
        perOrderCents: input.limit_per_order,
        per30DaysCents: input.limit_per_30_days,
      });
      return { row, ended: await endWatchesOutOfStanding(tx, { personId: ctx.personId }, now) };
    });
    notifyWatchesEnded(ended);
    return rowToSpendingSettingsResponse(row);
  });
