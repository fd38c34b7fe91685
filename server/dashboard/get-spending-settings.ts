/** The signed-in shopper's spending limits and pause switch (the dashboard's limits page). */
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSpendingSettingsResponse } from "../accounts";
import { readSpendingSettings, toSpendingSettingsResponse } from "../accounts";

export const getSpendingSettings = shopperProcedure
  .output(ZSpendingSettingsResponse)
  .query(async ({ ctx }) => {
    const settings = await readSpendingSettings(ctx.db, ctx.personId);
    if (!settings) throw new AppError("unauthorized", { message: "Sign in to continue." });
    return toSpendingSettingsResponse(settings);
  });
