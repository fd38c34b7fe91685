/**
 * GET /search-watches (searchWatches.list) and GET /search-watches/{search_watch_id}
 * (searchWatches.get): the person's watches, newest first, paginated like search; another person's
 * watch is not_found. Either scope admits (alerts:write or purchase:write): a person's watches,
 * whichever app set them. The dashboard (/account/search-watches) reads the same page.
 */
import { AppError } from "../core/errors";
import type { Sql } from "../platform/sql";
import { procedure } from "../platform/trpc/procedures";
import {
  ZListSearchWatchesQuery,
  ZSearchWatch,
  ZSearchWatchIdParams,
  ZSearchWatchList,
} from "./search-watch.schema";
import { toWireSearchWatches, withMatchCounts } from "./search-watch-view";
import { findPersonWatch, listPersonWatches } from "./store";

const meta = { caller: "person", scope: ["alerts:write", "purchase:write"] } as const;

/**
 * A page of the person's watches, newest first, each as the wire shows it with the client id of
 * the app that set it and how many of its matches an email named, and how many watches they have
 * (the dashboard's list).
 */
export const pageOfPersonSearchWatches = async (
  sql: Sql,
  page: { personId: string; page: number; pageSize: number },
) => {
  const { rows, total } = await listPersonWatches(sql, page.personId, {
    skip: (page.page - 1) * page.pageSize,
    take: page.pageSize,
  });
  const counted = await withMatchCounts(sql, rows);
  return {
    watches: counted.map((watch, index) => ({ ...watch, clientId: rows[index]!.clientId })),
    total,
  };
};

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
