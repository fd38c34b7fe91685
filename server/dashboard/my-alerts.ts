/**
 * The signed-in person's price alerts (/account/alerts): the list, newest first, a page at a time,
 * and Stop. The same functions as GET /price-alerts and DELETE /price-alerts/{id}
 * (server/price-alerts/price-alerts.ts); another person's id is not_found.
 */
import { z } from "zod";
import { listPriceAlerts, stopPriceAlert } from "../price-alerts";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZPriceAlert, ZPriceAlertIdParams, ZPriceAlertList } from "../price-alerts";

/** Alerts per page of the dashboard list. */
const myAlertsPageSize = 20;

const ZListMyAlertsInput = z
  .object({ page: z.number().int().min(1).max(1000).default(1) })
  .strict()
  .default({ page: 1 });

export const listMyAlerts = shopperProcedure
  .input(ZListMyAlertsInput)
  .output(ZPriceAlertList)
  .query(({ ctx, input }) =>
    listPriceAlerts(ctx.db, ctx.personId, { page: input.page, perPage: myAlertsPageSize }),
  );

export const stopMyAlert = shopperProcedure
  .input(ZPriceAlertIdParams.strict())
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) =>
    stopPriceAlert(ctx.db, ctx.personId, input.price_alert_id, ctx.clock.now()),
  );
