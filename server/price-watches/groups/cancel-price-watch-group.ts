/** DELETE /price-watch-groups/{price_watch_group_id}: cancels the person's active group and all its alternatives (cancelGroup); another person's is not_found. */
import { procedure } from "../../platform/trpc/procedures";
import { watchOwner } from "../read-price-watches";
import { cancelGroup } from "./cancel-group";
import { ZPriceWatchGroup, ZPriceWatchGroupIdParams } from "./price-watch-group.schema";
import { toWireGroup } from "./price-watch-group-view";
import { findOwnGroup } from "./read-price-watch-groups";

export const cancelPriceWatchGroup = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPriceWatchGroupIdParams)
  .output(ZPriceWatchGroup)
  .mutation(async ({ ctx, input }) => {
    const personId = watchOwner(ctx.actor);
    const id = input.price_watch_group_id;
    await findOwnGroup(ctx.db, personId, id);
    await cancelGroup(ctx.db, { id, now: ctx.clock.now() });
    return toWireGroup(ctx.db, await findOwnGroup(ctx.db, personId, id));
  });
