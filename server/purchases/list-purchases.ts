/**
 * GET /purchases (purchases.list, orders:read or purchase:write): the purchases this assistant made
 * for the token's person, newest first, a page at a time like search. Another assistant's purchases,
 * or another person's, are never in it.
 */
import { procedure } from "../platform/trpc/procedures";
import { ZListPurchasesRequest, ZListPurchasesResponse } from "./purchase.schema";
import { listOwnPurchases } from "./store/own-purchases";

export const listPurchases = procedure({
  caller: "person",
  scope: ["orders:read", "purchase:write"],
})
  .input(ZListPurchasesRequest)
  .output(ZListPurchasesResponse)
  .query(async ({ ctx, input }) => {
    const page = { page: input.page, perPage: input.per_page };
    const { purchases, total } = await listOwnPurchases(ctx.db, ctx.actor, page);
    return {
      data: purchases,
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });
