/**
 * The signed-in person's price watches (/account/watches): the list, newest first, a page at a
 * time, each with its item as the page shows it (picture, condition, store) and the assistant that
 * set it, the person's time zone for the page's times, and Cancel. The cancel is the one use case
 * (cancelWatch), the same as DELETE /price-watches/{id} and the set email's link; another person's
 * watch is not_found.
 */
import { z } from "zod";
import { AppError } from "../core/errors";
import {
  cancelWatch,
  isWatchOfPerson,
  pageOfPersonWatches,
  toWirePriceWatch,
  ZPriceWatch,
  ZPriceWatchEvaluation,
} from "../price-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { findClientSummaries } from "../auth";
import { readReadingPreferences } from "../accounts";
import { publicPurchaseStatus, publicPurchaseStatuses, readPurchaseStates } from "../purchases";
import { parseCents } from "../core/money";
import { drawPriceCharts } from "../catalogue";
import { ZPriceChart } from "./price-charts";
import { ZDashboardPageInput, ZWatchedItem } from "./dashboard.schema";

/** Watches per page of the dashboard list. */
const myWatchesPageSize = 10;

/** Where a watch's (or a group's) purchase stands now: its public status and why; null before one. */
export const ZMyPurchaseStanding = z
  .object({ status: z.enum(publicPurchaseStatuses), reason: z.string().nullable() })
  .nullable();

const ZMyWatch = ZPriceWatch.extend({
  assistant: z.string(),
  can_cancel: z.boolean(),
  item: ZWatchedItem,
  /** The watch's last evaluation (1.9.0): when, the price, the total, and why it did not buy; null before any. */
  last_evaluation: ZPriceWatchEvaluation.nullable(),
  /** The item's price history with the watch's max price as its line (server-drawn SVG). */
  price_chart: ZPriceChart,
  /**
   * Where the purchase the watch made stands now (null before it made one): a watch that bought
   * stays `fulfilled` (one purchase a watch), but its purchase may since have been cancelled (the
   * person cancelled from the email, the item sold elsewhere before the charge) or refunded.
   */
  purchase: z
    .object({ status: z.enum(publicPurchaseStatuses), reason: z.string().nullable() })
    .nullable(),
});
export type TMyWatch = z.infer<typeof ZMyWatch>;

const ZMyWatchesResponse = z.object({
  watches: z.array(ZMyWatch),
  page: z.number().int(),
  has_more: z.boolean(),
  /** The person's zone (their saved address's province), for the page's times. */
  time_zone: z.string(),
});
export type TMyWatchesResponse = z.infer<typeof ZMyWatchesResponse>;

/** The purchase as the page says it: its public status and why. */
export const purchaseStanding = (
  purchase:
    { status: Parameters<typeof publicPurchaseStatus>[0]; reason: string | null } | undefined,
) => (purchase ? { status: publicPurchaseStatus(purchase.status), reason: purchase.reason } : null);

export const listMyWatches = shopperProcedure
  .input(ZDashboardPageInput)
  .output(ZMyWatchesResponse)
  .query(async ({ ctx, input }) => {
    const rows = await pageOfPersonWatches(ctx.db, {
      personId: ctx.personId,
      page: input.page,
      pageSize: myWatchesPageSize,
    });
    const shown = rows.slice(0, myWatchesPageSize);
    // The assistants' names are auth's (api_clients), read once for the page.
    const clients = await findClientSummaries(ctx.db, [
      ...new Set(shown.map((row) => row.clientId)),
    ]);
    const names = new Map(clients.map((client) => [client.id, client.name]));
    const preferences = await readReadingPreferences(ctx.db, ctx.personId);
    const purchases = await readPurchaseStates(
      ctx.db,
      shown.flatMap((row) => (row.purchaseId ? [row.purchaseId] : [])),
    );
    const wire = shown.map(toWirePriceWatch);
    const charts = await drawPriceCharts(
      ctx.db,
      wire.map((watch, index) => ({
        itemId: Number(watch.catalog_item_id),
        targetCents: parseCents(watch.max_price.amount),
        title: shown[index]!.item.title,
      })),
      { ...preferences, now: ctx.clock.now() },
    );
    return {
      watches: shown.map((row, index) => ({
        ...wire[index]!,
        assistant: names.get(row.clientId)!,
        can_cancel: row.status === "active",
        item: row.item,
        last_evaluation: row.lastEvaluation,
        price_chart: charts[index]!,
        purchase: purchaseStanding(row.purchaseId ? purchases.get(row.purchaseId) : undefined),
      })),
      page: input.page,
      has_more: rows.length > myWatchesPageSize,
      time_zone: preferences.timeZone,
    };
  });

export const cancelMyWatch = shopperProcedure
  .input(z.object({ price_watch_id: z.number().int().min(1).max(2_147_483_647) }).strict())
  .mutation(async ({ ctx, input }) => {
    if (!(await isWatchOfPerson(ctx.db, { personId: ctx.personId, id: input.price_watch_id })))
      throw new AppError("not_found", { message: "No such price watch." });
    const result = await cancelWatch(ctx.db, { id: input.price_watch_id, now: ctx.clock.now() });
    return { price_watch_id: input.price_watch_id, already_cancelled: result.alreadyCancelled };
  });
