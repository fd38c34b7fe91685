/** DELETE /price-watches/{price_watch_id}: cancels the person's active watch (cancelWatch); another person's is not_found. */
import { cancelWatch } from "./cancel-watch";
import { procedure } from "../platform/trpc/procedures";
import { ZPriceWatch, ZPriceWatchIdParams } from "./price-watch.schema";
import { toWirePriceWatch } from "./price-watch-view";
import { checkOwnWatch, findOwnWatch, watchOwner } from "./read-price-watches";

export const cancelPriceWatch = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPriceWatchIdParams)
  .output(ZPriceWatch)
  .mutation(async ({ ctx, input }) => {
    const personId = watchOwner(ctx.actor);
    await checkOwnWatch(ctx.db, personId, input.price_watch_id);
    await cancelWatch(ctx.db, { id: input.price_watch_id, now: ctx.clock.now() });
    return toWirePriceWatch(await findOwnWatch(ctx.db, personId, input.price_watch_id));
  });
