/**
 * GET /price-watch-groups (the person's any-of groups, newest first, paginated like GET /products)
 * and GET /price-watch-groups/{price_watch_group_id}, and the same page for the dashboard
 * (/account/watch-groups). Another person's group is not_found.
 */
import { AppError } from "../../core/errors";
import type { Db } from "../../platform/db";
import { procedure } from "../../platform/trpc/procedures";
import { watchOwner } from "../read-price-watches";
import {
  ZListPriceWatchGroupsQuery,
  ZPriceWatchGroup,
  ZPriceWatchGroupIdParams,
  ZPriceWatchGroupList,
} from "./price-watch-group.schema";
import { toWireGroup, toWireGroups, withAlternativeItems } from "./price-watch-group-view";
import { findPersonGroup, listPersonGroups } from "./store";

/** The person's group with its alternatives; or not_found. */
export const findOwnGroup = async (db: Db, personId: string, id: string) => {
  const group = await findPersonGroup(db, personId, id);
  if (!group) throw new AppError("not_found", { message: `No price watch group ${id}.` });
  return group;
};

/**
 * A page of the person's groups, newest first, each with the client id of the assistant that set it
 * and its alternatives' items as the shopper's pages show them, and how many groups they have (the
 * dashboard's list; the wire's shape from toWirePriceWatchGroup).
 */
export const pageOfPersonGroups = async (
  db: Db,
  page: { personId: string; page: number; pageSize: number },
) => {
  const { rows, total } = await listPersonGroups(db, page);
  return { groups: await withAlternativeItems(db, rows), total };
};

export const listPriceWatchGroups = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZListPriceWatchGroupsQuery)
  .output(ZPriceWatchGroupList)
  .query(async ({ ctx, input }) => {
    const { rows, total } = await listPersonGroups(ctx.db, {
      personId: watchOwner(ctx.actor),
      page: input.page,
      pageSize: input.per_page,
    });
    return {
      data: await toWireGroups(ctx.db, rows),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });

export const getPriceWatchGroup = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPriceWatchGroupIdParams)
  .output(ZPriceWatchGroup)
  .query(async ({ ctx, input }) =>
    toWireGroup(
      ctx.db,
      await findOwnGroup(ctx.db, watchOwner(ctx.actor), input.price_watch_group_id),
    ),
  );
