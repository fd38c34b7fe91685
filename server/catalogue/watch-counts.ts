/**
 * `price_watchers` and `you_are_watching` for the items of one answer (search page or item detail),
 * for whoever asks: the person on a linked-account token or the signed-in shopper; nobody for a
 * client-credentials token (then nothing is excluded and you_are_watching is always false). Two
 * lookups for the whole page, side by side, never one per item; computed after the shared page
 * cache, so one person's answer is never served to another.
 */
import { catalogSearch } from "./search";
import type { WatchCounts } from "./product-json";
import { ownWatchedItems } from "./search/watchers";
import type { Actor, Context } from "../platform/trpc/context";

/** The person the answer is for, if any. */
const viewerOf = (actor: Actor): string | undefined =>
  actor.kind === "person" ? actor.personId : actor.kind === "client" ? actor.personId : undefined;

export const watchCountsFor = async (
  ctx: Pick<Context, "actor" | "db">,
  itemIds: readonly number[],
): Promise<WatchCounts[]> => {
  const viewer = viewerOf(ctx.actor);
  const [counts, own] = await Promise.all([
    catalogSearch(ctx.db).priceWatchers(itemIds, viewer),
    ownWatchedItems(viewer, itemIds),
  ]);
  return itemIds.map((id, index) => ({ watchers: counts[index], youAreWatching: own.has(id) }));
};
