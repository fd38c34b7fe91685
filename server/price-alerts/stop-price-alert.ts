/** DELETE /price-alerts/{price_alert_id} (priceAlerts.stop, scope alerts:write): stops the person's alert; another person's is 404. */
import { stopPriceAlert as stop } from "./price-alerts";
import { procedure } from "../platform/trpc/procedures";
import { ZPriceAlert, ZPriceAlertIdParams } from "./price-alert.schema";

export const stopPriceAlert = procedure({ caller: "person", scope: "alerts:write", shopper: true })
  .input(ZPriceAlertIdParams)
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) => stop(ctx.db, ctx.personId, input.price_alert_id, ctx.clock.now()));
