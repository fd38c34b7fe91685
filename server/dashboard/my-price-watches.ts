/**
 * The signed-in person's price watches (/account/watches): the list, newest first, a page at a
 * time, with the assistant that set each, and Cancel. The cancel is the one use case
 * (cancelWatch), the same as DELETE /price-watches/{id} and the set email's link; another person's
 * watch is not_found.
 */
import { z } from "zod";
import { AppError } from "../core/errors";
import { cancelWatch, isWatchOfPerson, pageOfPersonWatches } from "../price-watches";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZPriceWatch } from "../price-watches";
import { toWirePriceWatch } from "../price-watches";
import { findClientSummaries } from "../auth";

/** Watches per page of the dashboard list. */
const myWatchesPageSize = 10;

const ZListMyWatchesInput = z
  .object({ page: z.number().int().min(1).max(1000).default(1) })
  .strict()
  .default({ page: 1 });

const ZMyWatch = ZPriceWatch.extend({ assistant: z.string(), can_cancel: z.boolean() });
export type TMyWatch = z.infer<typeof ZMyWatch>;

const ZMyWatchesResponse = z.object({
  watches: z.array(ZMyWatch),
  page: z.number().int(),
  has_more: z.boolean(),
});
export type TMyWatchesResponse = z.infer<typeof ZMyWatchesResponse>;

export const listMyWatches = shopperProcedure
  .input(ZListMyWatchesInput)
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
    return {
      watches: shown.map((row) => ({
        ...toWirePriceWatch(row),
        assistant: names.get(row.clientId)!,
        can_cancel: row.status === "active",
      })),
      page: input.page,
      has_more: rows.length > myWatchesPageSize,
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
