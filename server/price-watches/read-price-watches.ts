/**
 * GET /price-watches (the person's watches, newest first, paginated like GET /products) and GET
 * /price-watches/{price_watch_id}. A watch is the person's, whichever of their assistants set it;
 * another person's watch is not_found, so ids leak nothing.
 */
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import type { Actor } from "../platform/trpc/context";
import { requirePersonGrant } from "../platform/trpc/admission";
import {
  ZListPriceWatchesQuery,
  ZPriceWatch,
  ZPriceWatchIdParams,
  ZPriceWatchList,
} from "./price-watch.schema";
import { toWirePriceWatch, withItem, withItems } from "./price-watch-view";
import { findPersonWatch, listPersonWatches, listWatchesOfPerson } from "./store/watches";
import { findLastEvaluations } from "./store/evaluations";
import { toWireEvaluation } from "./evaluation-view";

/**
 * The token's person: reading and cancelling need a linked-account token with purchase:write, but
 * not the purchases switch (an assistant switched off can still show and stop what it set).
 */
export const watchOwner = (actor: Actor) => requirePersonGrant(actor, "purchase:write").personId;

/** The person's watch; or not_found. */
export const checkOwnWatch = async (db: Db, personId: string, id: number) => {
  const watch = await findPersonWatch(db, personId, id);
  if (!watch) throw new AppError("not_found", { message: `No price watch ${id}.` });
  return watch;
};

/** The person's watch with its item; or not_found. */
export const findOwnWatch = async (db: Db, personId: string, id: number) =>
  withItem(db, await checkOwnWatch(db, personId, id));

/**
 * A page of the person's watches with their items, newest first, each with the client id of the
 * assistant that set it and its last evaluation as the wire shows it (null: none yet); one more
 * than the page, to tell whether more follow (the dashboard's list).
 */
export const pageOfPersonWatches = async (
  db: Db,
  page: { personId: string; page: number; pageSize: number },
) => {
  const rows = await withItems(db, await listWatchesOfPerson(db, page));
  const last = await findLastEvaluations(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const evaluation = last.get(row.id);
    return { ...row, lastEvaluation: evaluation ? toWireEvaluation(evaluation) : null };
  });
};

export const listPriceWatches = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZListPriceWatchesQuery)
  .output(ZPriceWatchList)
  .query(async ({ ctx, input }) => {
    const personId = watchOwner(ctx.actor);
    const { rows, total } = await listPersonWatches(ctx.db, {
      personId,
      page: input.page,
      pageSize: input.per_page,
    });
    return {
      data: (await withItems(ctx.db, rows)).map(toWirePriceWatch),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });

export const getPriceWatch = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPriceWatchIdParams)
  .output(ZPriceWatch)
  .query(async ({ ctx, input }) =>
    toWirePriceWatch(await findOwnWatch(ctx.db, watchOwner(ctx.actor), input.price_watch_id)),
  );
