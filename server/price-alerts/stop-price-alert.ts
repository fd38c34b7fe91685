/** DELETE /price-alerts/{price_alert_id} (priceAlerts.stop, scope alerts:write): stops the person's alert; another person's is 404. */
import { stopPriceAlert as stop } from "./price-alerts";
import { scopeOf } from "../edges/rest/operations";
import { personDataProcedure } from "../platform/trpc/procedures";
import { ZPriceAlert, ZPriceAlertIdParams } from "./price-alert.schema";

export const stopPriceAlert = personDataProcedure(
  scopeOf("DELETE /api/v1/price-alerts/{price_alert_id}"),
)
  .input(ZPriceAlertIdParams)
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) => stop(ctx.db, ctx.personId, input.price_alert_id, ctx.clock.now()));
