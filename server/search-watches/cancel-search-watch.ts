/**
 * DELETE /search-watches/{search_watch_id} (searchWatches.cancel): an active watch moves to
 * cancelled (outcome cancelled); one that already ended, or is buying now, is answered as it is
 * (a purchase it made is cancelled from its own email). Another person's watch is not_found.
 */
import { AppError } from "../core/errors";
import type { Sql } from "../platform/sql";
import { procedure } from "../platform/trpc/procedures";
import { watchIndex } from "./matcher";
import { ZSearchWatch, ZSearchWatchIdParams } from "./search-watch.schema";
import { toWireSearchWatches } from "./search-watch-view";
import { findPersonWatch, moveSearchWatch } from "./store";

/**
 * Cancels the person's watch `id` if it is active, and leaves the matcher's index; the watch as it
 * now is, and whether this call cancelled it. Another person's watch, or none, is not_found. The
 * use case of DELETE /search-watches/{id} and of the dashboard's Cancel.
 */
export const cancelOwnSearchWatch = async (
  sql: Sql,
  options: { personId: string; id: string; now: Date },
) => {
  const moved = await moveSearchWatch(sql, { ...options, event: "cancel" });
  const row = await findPersonWatch(sql, options.personId, options.id);
  if (!row) throw new AppError("not_found", { message: "No such search watch." });
  if (row.status !== "active") watchIndex.remove(options.id);
  return { row, isCancelledNow: moved !== undefined };
};

export const cancelSearchWatch = procedure({
  caller: "person",
  scope: ["alerts:write", "purchase:write"],
})
  .input(ZSearchWatchIdParams)
  .output(ZSearchWatch)
  .mutation(async ({ ctx, input }) => {
    const { row } = await cancelOwnSearchWatch(ctx.db, {
      personId: ctx.personId,
      id: input.search_watch_id,
      now: ctx.clock.now(),
    });
    const [watch] = await toWireSearchWatches(ctx.db, [row]);
    return watch;
  });
