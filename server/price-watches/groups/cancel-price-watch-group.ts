/** DELETE /price-watch-groups/{price_watch_group_id}: cancels the person's active group and all its alternatives (cancelGroup); another person's is not_found. */
import type { Db } from "../../platform/db";
import { procedure } from "../../platform/trpc/procedures";
import { watchOwner } from "../read-price-watches";
import { cancelGroup } from "./cancel-group";
import { ZPriceWatchGroup, ZPriceWatchGroupIdParams } from "./price-watch-group.schema";
import { toWireGroup } from "./price-watch-group-view";
import { findOwnGroup } from "./read-price-watch-groups";

/**
 * Cancels the person's group `id` (cancelGroup: the group and its live alternatives, one email;
 * watch_closed once it is buying or ended); another person's group, or none, is not_found. The use
 * case of DELETE /price-watch-groups/{id} and of the dashboard's Cancel.
 */
export const cancelOwnGroup = async (
  db: Db,
  options: { personId: string; id: string; now: Date },
) => {
  await findOwnGroup(db, options.personId, options.id);
  return cancelGroup(db, { id: options.id, now: options.now });
};

export const cancelPriceWatchGroup = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPriceWatchGroupIdParams)
  .output(ZPriceWatchGroup)
  .mutation(async ({ ctx, input }) => {
    const personId = watchOwner(ctx.actor);
    const id = input.price_watch_group_id;
    await cancelOwnGroup(ctx.db, { personId, id, now: ctx.clock.now() });
    return toWireGroup(ctx.db, await findOwnGroup(ctx.db, personId, id));
  });
