/** DELETE /price-alerts/{price_alert_id} (priceAlerts.stop, scope alerts:write): stops the person's alert; another person's is 404. */
import { stopPriceAlert as stop } from "./price-alerts";
import { personDataProcedure } from "../platform/trpc/procedures";
import { ZPriceAlert, ZPriceAlertIdParams } from "./price-alert.schema";

export const stopPriceAlert = personDataProcedure("alerts:write")
  .input(ZPriceAlertIdParams)
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) => stop(ctx.db, ctx.personId, input.price_alert_id, ctx.clock.now()));
