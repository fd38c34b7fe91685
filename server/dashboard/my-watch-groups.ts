/**
 * The signed-in person's any-of price watch groups (/account/watch-groups): the list, newest first,
 * a page at a time, each with the assistant that set it and its alternatives in their order, each
 * with its item as the page shows it (picture, condition, store) and its price chart; the person's
 * time zone for the page's times; and Cancel. The read and the cancel are price-watches' use cases
 * (pageOfPersonGroups, cancelOwnGroup: the same as GET and DELETE /price-watch-groups); another
 * person's group is not_found.
 */
import { z } from "zod";
import { findClientSummaries } from "../auth";
import { readReadingPreferences } from "../accounts";
import { drawPriceCharts } from "../catalogue";
import {
  cancelOwnGroup,
  isAnyPriceWithinTotal,
  isCancellableGroup,
  pageOfPersonGroups,
  toWirePriceWatchGroup,
  ZPriceWatch,
  ZPriceWatchGroup,
  ZPriceWatchGroupIdParams,
} from "../price-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZPriceChart } from "./price-charts";
import { readPurchaseStates } from "../purchases";
import { purchaseStanding, ZMyPurchaseStanding } from "./my-price-watches";
import { ZDashboardPageInput, ZWatchedItem } from "./dashboard.schema";

/** Groups per page: up to 10 alternatives each, each with a chart (about 10 ms of CPU a chart not yet drawn). */
const myGroupsPageSize = 5;

const ZMyAlternative = ZPriceWatch.extend({
  item: ZWatchedItem,
  /** No price of its own: only the group's max_total applies to it (its max_price is the total). */
  any_price_within_total: z.boolean(),
  /** The item's price history with the alternative's max price as its line (server-drawn SVG). */
  price_chart: ZPriceChart,
});

const ZMyWatchGroup = ZPriceWatchGroup.extend({
  assistant: z.string(),
  can_cancel: z.boolean(),
  alternatives: z.array(ZMyAlternative),
  /** Where the purchase the group made stands now (null before it made one), as a watch's. */
  purchase: ZMyPurchaseStanding,
});
export type TMyWatchGroup = z.infer<typeof ZMyWatchGroup>;

const ZMyWatchGroupsResponse = z.object({
  groups: z.array(ZMyWatchGroup),
  page: z.number().int(),
  has_more: z.boolean(),
  /** The person's zone (their saved address's province), for the page's times. */
  time_zone: z.string(),
});
export type TMyWatchGroupsResponse = z.infer<typeof ZMyWatchGroupsResponse>;

export const listMyWatchGroups = shopperProcedure
  .input(ZDashboardPageInput)
  .output(ZMyWatchGroupsResponse)
  .query(async ({ ctx, input }) => {
    const { groups, total } = await pageOfPersonGroups(ctx.db, {
      personId: ctx.personId,
      page: input.page,
      pageSize: myGroupsPageSize,
    });
    // The assistants' names are auth's (api_clients), read once for the page.
    const clients = await findClientSummaries(ctx.db, [
      ...new Set(groups.map((group) => group.clientId)),
    ]);
    const names = new Map(clients.map((client) => [client.id, client.name]));
    const preferences = await readReadingPreferences(ctx.db, ctx.personId);
    const purchases = await readPurchaseStates(
      ctx.db,
      groups.flatMap((group) => (group.purchaseId ? [group.purchaseId] : [])),
    );
    const alternatives = groups.flatMap((group) => group.alternatives);
    const charts = await drawPriceCharts(
      ctx.db,
      alternatives.map((alternative) => ({
        itemId: alternative.itemId,
        targetCents: alternative.maxPriceCents,
        title: alternative.item.title,
      })),
      { ...preferences, now: ctx.clock.now() },
    );
    const chartOf = new Map(
      alternatives.map((alternative, index) => [alternative.id, charts[index]!]),
    );
    return {
      groups: groups.map((group) => {
        const wire = toWirePriceWatchGroup(group);
        return {
          ...wire,
          assistant: names.get(group.clientId)!,
          can_cancel: isCancellableGroup(group.status),
          purchase: purchaseStanding(
            group.purchaseId ? purchases.get(group.purchaseId) : undefined,
          ),
          alternatives: group.alternatives.map((alternative, index) => ({
            ...wire.alternatives[index]!,
            item: alternative.item,
            any_price_within_total: isAnyPriceWithinTotal(alternative, group.maxTotalCents),
            price_chart: chartOf.get(alternative.id)!,
          })),
        };
      }),
      page: input.page,
      has_more: input.page * myGroupsPageSize < total,
      time_zone: preferences.timeZone,
    };
  });

export const cancelMyWatchGroup = shopperProcedure
  .input(ZPriceWatchGroupIdParams.strict())
  .mutation(async ({ ctx, input }) => {
    const id = input.price_watch_group_id;
    const result = await cancelOwnGroup(ctx.db, {
      personId: ctx.personId,
      id,
      now: ctx.clock.now(),
    });
    return { price_watch_group_id: id, already_cancelled: result.alreadyCancelled };
  });
