/** GET /price-alerts (priceAlerts.list, scope alerts:write): the person's alerts, newest first, paginated like search. */
import { listPriceAlerts as list } from "./price-alerts";
import { procedure } from "../platform/trpc/procedures";
import { ZListPriceAlertsQuery, ZPriceAlertList } from "./price-alert.schema";

export const listPriceAlerts = procedure({ caller: "person", scope: "alerts:write", shopper: true })
  .input(ZListPriceAlertsQuery)
  .output(ZPriceAlertList)
  .query(({ ctx, input }) =>
    list(ctx.db, ctx.personId, { page: input.page, perPage: input.per_page }),
  );
