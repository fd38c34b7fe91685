/**
 * POST /search-watches (searchWatches.create): a watch on a search, with GET /products' filters.
 * notify needs alerts:write, buy needs purchase:write (the token is admitted with either; the
 * mode's own scope is checked here, 403 insufficient_scope naming it). A buying watch is held to
 * POST /purchases' rules when it is set (the assistant, purchases on for it, the person's limits,
 * max_total within the per-order limit, saved card and address outside Quebec) and again when it
 * buys. The live-watch limit is checked under the person's row lock in the transaction that writes
 * the watch, so two requests at once cannot both pass it.
 */
import { AppError } from "../core/errors";
import { parseCents, toMoney } from "../core/money";
import { lockPerson } from "../accounts";
import { overSpendingLimit, purchasingAgent, spendingRoom, standingOrderBuyer } from "../purchases";
import { randomId } from "../core/ids";
import { inTransaction, type Db } from "../platform/db";
import type { Actor } from "../platform/trpc/context";
import { procedure } from "../platform/trpc/procedures";
import { watchIndex } from "./matcher";
import { scopeOfMode } from "./policy";
import {
  type TCreateSearchWatchBody,
  ZCreateSearchWatchBody,
  ZSearchWatch,
} from "./search-watch.schema";
import { toWireSearchWatches } from "./search-watch-view";
import { maxLiveSearchWatches, searchWatchDays } from "./states";
import { countLiveWatches, findPersonWatch, insertSearchWatch, type StoredFilters } from "./store";

const dayMs = 24 * 3_600_000;

/** 403 insufficient_scope naming the scope the mode needs, when the token lacks it. */
const requireModeScope = (actor: Actor, mode: TCreateSearchWatchBody["mode"]) => {
  const scope = scopeOfMode(mode);
  if (actor.kind === "client" && actor.scopes.includes(scope)) return actor;
  throw new AppError("insufficient_scope", {
    message: `A search watch in mode ${mode} needs the ${scope} scope.`,
    details: { scope },
  });
};

/** The buy mode's rules as POST /purchases checks them, refused with 409 (nothing set). */
const checkBuyer = async (db: Db, actor: Actor, maxTotalCents: number, now: Date) => {
  const { personId } = await purchasingAgent(db, actor, { status: 409 });
  const { settings } = await standingOrderBuyer(db, personId);
  const room = await spendingRoom(db, {
    personId,
    perOrderCents: settings.limitPerOrderCents!,
    per30DaysCents: settings.limitPer30DaysCents!,
    now,
  });
  const over = overSpendingLimit(maxTotalCents, room);
  if (over)
    throw new AppError("over_spending_limit", {
      message: `max_total is over the person's spending limits: ${over.message} No watch was set.`,
      details: { limit: toMoney(over.limitCents), room: toMoney(over.roomCents) },
      status: 409,
    });
};

/** The filters as given (validated), without the ones left out. */
const storedFilters = (input: TCreateSearchWatchBody): StoredFilters => ({
  ...(input.q === undefined ? {} : { q: input.q }),
  ...(input.category === undefined ? {} : { category: input.category }),
  size: input.size,
  color: input.color,
  brand: input.brand,
  ...(input.store === undefined ? {} : { store: input.store }),
  ...(input.min_price === undefined ? {} : { min_price: input.min_price }),
  ...(input.max_price === undefined ? {} : { max_price: input.max_price }),
});

export const createSearchWatch = procedure({
  caller: "person",
  scope: ["alerts:write", "purchase:write"],
})
  .input(ZCreateSearchWatchBody)
  .output(ZSearchWatch)
  .mutation(async ({ ctx, input }) => {
    const actor = requireModeScope(ctx.actor, input.mode);
    if (actor.kind !== "client") throw new AppError("unauthorized");
    const maxTotalCents = input.max_total === undefined ? null : parseCents(input.max_total);
    const now = ctx.clock.now();
    if (input.mode === "buy") await checkBuyer(ctx.db, ctx.actor, maxTotalCents!, now);
    const id = randomId("srw_");
    await inTransaction(ctx.db, async (tx) => {
      await lockPerson(tx, ctx.personId);
      if ((await countLiveWatches(tx, ctx.personId)) >= maxLiveSearchWatches)
        throw new AppError("too_many_search_watches", {
          message: `At most ${maxLiveSearchWatches} live search watches per person; cancel one first.`,
          details: { limit: maxLiveSearchWatches },
        });
      await insertSearchWatch(tx, {
        id,
        personId: ctx.personId,
        clientId: actor.clientId,
        mode: input.mode,
        filters: storedFilters(input),
        maxTotalCents,
        expiresAt: new Date(now.getTime() + (input.days ?? searchWatchDays.default) * dayMs),
        createdAt: now,
      });
    });
    // Filed in this process's index at once (other instances read it by their cursor).
    await watchIndex.refresh(ctx.db, { force: true, ifLoaded: true });
    const [watch] = await toWireSearchWatches(ctx.db, [
      (await findPersonWatch(ctx.db, ctx.personId, id))!,
    ]);
    return watch;
  });
