/**
 * The shopper sets both spending limits (CAD, per order and per rolling 30 days). Session only:
 * an app's token can never change them.
 */
import { shopperProcedure } from "../../trpc/procedures";
import { ZSetSpendingLimitsInput, ZSpendingSettingsResponse } from "./account.schema";
import { rowToSpendingSettingsResponse, spendingSettingsSelect } from "./spending.queries";

export const setSpendingLimits = shopperProcedure
  .input(ZSetSpendingLimitsInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.person.update({
      where: { id: ctx.personId },
      data: { spendingLimitPerOrderCents: input.limit_per_order, spendingLimitPer30DaysCents: input.limit_per_30_days },
      select: spendingSettingsSelect,
    });
    return rowToSpendingSettingsResponse(row);
  });
