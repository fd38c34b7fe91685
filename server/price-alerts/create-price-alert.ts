/**
 * POST /price-alerts (priceAlerts.create, scope alerts:write on a linked-account token): emails the
 * person once when the item's price reaches the target; never buys. Refusals in price-alerts.ts.
 */
import { parseCents } from "../core/money";
import { AppError } from "../core/errors";
import { createPriceAlert as create } from "./price-alerts";
import { procedure } from "../platform/trpc/procedures";
import { ZCreatePriceAlertBody, ZPriceAlert } from "./price-alert.schema";

export const createPriceAlert = procedure({
  caller: "person",
  scope: "alerts:write",
  shopper: true,
})
  .input(ZCreatePriceAlertBody)
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) => {
    // An alert records the app that set it: only an app's token sets one (the dashboard lists and stops).
    if (ctx.actor.kind !== "client")
      throw new AppError("forbidden", { message: "Price alerts are set by a connected app." });
    return create(ctx.db, {
      personId: ctx.personId,
      clientId: ctx.actor.clientId,
      itemId: input.catalog_item_id,
      target:
        input.target_price !== undefined
          ? { priceCents: parseCents(input.target_price) }
          : { dropPercent: input.drop_percent! },
      now: ctx.clock.now(),
    });
  });
