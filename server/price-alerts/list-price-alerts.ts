/** GET /price-alerts (priceAlerts.list, scope alerts:write): the person's alerts, newest first, paginated like search. */
import { listPriceAlerts as list } from "./price-alerts";
import { scopeOf } from "../edges/rest/operations";
import { personDataProcedure } from "../platform/trpc/procedures";
import { ZListPriceAlertsQuery, ZPriceAlertList } from "./price-alert.schema";

export const listPriceAlerts = personDataProcedure(scopeOf("GET /api/v1/price-alerts"))
  .input(ZListPriceAlertsQuery)
  .output(ZPriceAlertList)
  .query(({ ctx, input }) =>
    list(ctx.db, ctx.personId, { page: input.page, perPage: input.per_page }),
  );
