/**
 * GET /search-watches (searchWatches.list) and GET /search-watches/{search_watch_id}
 * (searchWatches.get): the person's watches, newest first, paginated like search; another person's
 * watch is not_found. Either scope admits (alerts:write or purchase:write): a person's watches,
 * whichever app set them.
 */
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import {
  ZListSearchWatchesQuery,
  ZSearchWatch,
  ZSearchWatchIdParams,
  ZSearchWatchList,
} from "./search-watch.schema";
import { toWireSearchWatches } from "./search-watch-view";
import { findPersonWatch, listPersonWatches } from "./store";

const meta = { caller: "person", scope: ["alerts:write", "purchase:write"] } as const;

export const listSearchWatches = procedure(meta)
  .input(ZListSearchWatchesQuery)
  .output(ZSearchWatchList)
  .query(async ({ ctx, input }) => {
    const { rows, total } = await listPersonWatches(ctx.db, ctx.personId, {
      skip: (input.page - 1) * input.per_page,
      take: input.per_page,
    });
    return {
      data: await toWireSearchWatches(ctx.db, rows),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });

export const getSearchWatch = procedure(meta)
  .input(ZSearchWatchIdParams)
  .output(ZSearchWatch)
  .query(async ({ ctx, input }) => {
    const row = await findPersonWatch(ctx.db, ctx.personId, input.search_watch_id);
    if (!row) throw new AppError("not_found", { message: "No such search watch." });
    const [watch] = await toWireSearchWatches(ctx.db, [row]);
    return watch;
  });
