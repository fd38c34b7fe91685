/**
 * The signed-in person's price alerts (/account/alerts): the list, newest first, a page at a time,
 * each with its item as the page shows it (picture, condition, store), the person's time zone for
 * the page's times, and Stop. The same functions as GET /price-alerts and DELETE
 * /price-alerts/{id} (server/price-alerts/price-alerts.ts); another person's id is not_found.
 */
import { z } from "zod";
import { readReadingPreferences } from "../accounts";
import { parseCents } from "../core/money";
import { drawPriceCharts } from "../catalogue";
import { ZPriceChart } from "./price-charts";
import { ZDashboardPageInput, ZWatchedItem } from "./dashboard.schema";
import { listPriceAlertsWithItems, stopPriceAlert } from "../price-alerts";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZPriceAlert, ZPriceAlertIdParams, ZPriceAlertList } from "../price-alerts";

/** Alerts per page of the dashboard list. */
const myAlertsPageSize = 20;

const ZMyAlertsResponse = z.object({
  pagination: ZPriceAlertList.shape.pagination,
  data: z.array(
    ZPriceAlert.extend({
      item: ZWatchedItem,
      /** The item's price history with the alert's target as its line (server-drawn SVG). */
      price_chart: ZPriceChart,
    }),
  ),
  /** The person's zone (their saved address's province), for the page's times. */
  time_zone: z.string(),
});
export type TMyAlertsResponse = z.infer<typeof ZMyAlertsResponse>;
export type TMyAlert = TMyAlertsResponse["data"][number];

export const listMyAlerts = shopperProcedure
  .input(ZDashboardPageInput)
  .output(ZMyAlertsResponse)
  .query(async ({ ctx, input }) => {
    const list = await listPriceAlertsWithItems(ctx.db, ctx.personId, {
      page: input.page,
      perPage: myAlertsPageSize,
    });
    const preferences = await readReadingPreferences(ctx.db, ctx.personId);
    const charts = await drawPriceCharts(
      ctx.db,
      list.data.map((alert) => ({
        itemId: Number(alert.catalog_item_id),
        targetCents: parseCents(alert.target_price.amount),
        title: alert.item.title,
      })),
      { ...preferences, now: ctx.clock.now() },
    );
    return {
      ...list,
      data: list.data.map((alert, index) => ({ ...alert, price_chart: charts[index]! })),
      time_zone: preferences.timeZone,
    };
  });

export const stopMyAlert = shopperProcedure
  .input(ZPriceAlertIdParams.strict())
  .output(ZPriceAlert)
  .mutation(({ ctx, input }) =>
    stopPriceAlert(ctx.db, ctx.personId, input.price_alert_id, ctx.clock.now()),
  );
