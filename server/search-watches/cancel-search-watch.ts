/**
 * DELETE /search-watches/{search_watch_id} (searchWatches.cancel): an active watch moves to
 * cancelled (outcome cancelled); one that already ended, or is buying now, is answered as it is
 * (a purchase it made is cancelled from its own email). Another person's watch is not_found.
 */
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { watchIndex } from "./matcher";
import { ZSearchWatch, ZSearchWatchIdParams } from "./search-watch.schema";
import { toWireSearchWatches } from "./search-watch-view";
import { findPersonWatch, moveSearchWatch } from "./store";

export const cancelSearchWatch = procedure({
  caller: "person",
  scope: ["alerts:write", "purchase:write"],
})
  .input(ZSearchWatchIdParams)
  .output(ZSearchWatch)
  .mutation(async ({ ctx, input }) => {
    const id = input.search_watch_id;
    await moveSearchWatch(ctx.db, {
      id,
      event: "cancel",
      now: ctx.clock.now(),
      personId: ctx.personId,
    });
    const row = await findPersonWatch(ctx.db, ctx.personId, id);
    if (!row) throw new AppError("not_found", { message: "No such search watch." });
    if (row.status !== "active") watchIndex.remove(id);
    const [watch] = await toWireSearchWatches(ctx.db, [row]);
    return watch;
  });
