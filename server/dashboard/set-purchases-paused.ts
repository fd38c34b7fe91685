/**
 * The shopper pauses or resumes assistant purchases. Idempotent: the time of the change moves only
 * when the switch actually flips (one conditional update, so two tabs cannot both record a change).
 * A pause ends the person's active price watches in the same transaction (outcome purchases_paused).
 */
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";
import { inTransaction } from "../platform/db";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZSetPurchasesPausedInput, ZSpendingSettingsResponse } from "../accounts";
import { flipPurchasesPaused, readSpendingRow, rowToSpendingSettingsResponse } from "../accounts";

export const setPurchasesPaused = shopperProcedure
  .input(ZSetPurchasesPausedInput)
  .output(ZSpendingSettingsResponse)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const ended = await inTransaction(ctx.db, async (tx) => {
      const isFlipped = await flipPurchasesPaused(tx, {
        personId: ctx.personId,
        paused: input.paused,
        now,
      });
      return isFlipped && input.paused
        ? endWatchesOutOfStanding(tx, { personId: ctx.personId }, now)
        : [];
    });
    notifyWatchesEnded(ended);
    return rowToSpendingSettingsResponse(await readSpendingRow(ctx.db, ctx.personId));
  });
