/**
 * The signed-in person's search watches (/account/search-watches): the list, newest first, a page
 * at a time, each with its filters, mode, max_total, status and expiry, how many items matched and
 * how many of them were emailed, the app that set it, and the item it bought (or is buying) with
 * its order; the person's time zone for the page's times; and Cancel. The read and the cancel are
 * search-watches' use cases (pageOfPersonSearchWatches, cancelOwnSearchWatch: the same as GET and
 * DELETE /search-watches); another person's watch is not_found.
 */
import { z } from "zod";
import { findClientSummaries } from "../auth";
import { readReadingPreferences } from "../accounts";
import { findItemCards } from "../catalogue";
import { watchedItemOf } from "../price-watches";
import {
  cancelOwnSearchWatch,
  isCancellableSearchWatch,
  pageOfPersonSearchWatches,
  ZSearchWatch,
  ZSearchWatchIdParams,
} from "../search-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZDashboardPageInput, ZWatchedItem } from "./dashboard.schema";

/** Search watches per page of the dashboard list (a person has at most 10 live). */
const mySearchWatchesPageSize = 10;

const ZMySearchWatch = ZSearchWatch.omit({ recent_matches: true }).extend({
  /** How many of its matches an email named (notify: the rest wait for the hourly digest). */
  notified_count: z.number().int(),
  assistant: z.string(),
  can_cancel: z.boolean(),
  /** buy: the item it bought or is buying (catalog_item_id) as the page shows it; null before one, or when the item is gone. */
  item: ZWatchedItem.nullable(),
});
export type TMySearchWatch = z.infer<typeof ZMySearchWatch>;

const ZMySearchWatchesResponse = z.object({
  search_watches: z.array(ZMySearchWatch),
  page: z.number().int(),
  has_more: z.boolean(),
  /** The person's zone (their saved address's province), for the page's times. */
  time_zone: z.string(),
});
export type TMySearchWatchesResponse = z.infer<typeof ZMySearchWatchesResponse>;

export const listMySearchWatches = shopperProcedure
  .input(ZDashboardPageInput)
  .output(ZMySearchWatchesResponse)
  .query(async ({ ctx, input }) => {
    const { watches, total } = await pageOfPersonSearchWatches(ctx.db, {
      personId: ctx.personId,
      page: input.page,
      pageSize: mySearchWatchesPageSize,
    });
    // The apps' names are auth's (api_clients), read once for the page.
    const clients = await findClientSummaries(ctx.db, [
      ...new Set(watches.map((watch) => watch.clientId)),
    ]);
    const names = new Map(clients.map((client) => [client.id, client.name]));
    const cards = await findItemCards(
      ctx.db,
      watches.flatMap(({ watch }) =>
        watch.catalog_item_id === null ? [] : [Number(watch.catalog_item_id)],
      ),
    );
    const preferences = await readReadingPreferences(ctx.db, ctx.personId);
    return {
      search_watches: watches.map(({ watch, notifiedCount, clientId }) => {
        const card =
          watch.catalog_item_id === null ? undefined : cards.get(Number(watch.catalog_item_id));
        return {
          ...watch,
          notified_count: notifiedCount,
          assistant: names.get(clientId)!,
          can_cancel: isCancellableSearchWatch(watch.status),
          item: card ? watchedItemOf(card) : null,
        };
      }),
      page: input.page,
      has_more: input.page * mySearchWatchesPageSize < total,
      time_zone: preferences.timeZone,
    };
  });

export const cancelMySearchWatch = shopperProcedure
  .input(ZSearchWatchIdParams.strict())
  .mutation(async ({ ctx, input }) => {
    const { row, isCancelledNow } = await cancelOwnSearchWatch(ctx.db, {
      personId: ctx.personId,
      id: input.search_watch_id,
      now: ctx.clock.now(),
    });
    return {
      search_watch_id: row.id,
      status: row.status,
      already_cancelled: !isCancelledNow && row.status === "cancelled",
    };
  });
