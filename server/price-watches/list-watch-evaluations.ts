/**
 * GET /price-watches/{price_watch_id}/evaluations (priceWatches.evaluations, 1.9.0): each evaluation
 * of the person's watch, newest first, paginated like GET /price-watches: when, the price it saw, the
 * total when it quoted, what it ended in and the first condition that failed. Another person's
 * watch is not_found.
 */
import { procedure } from "../platform/trpc/procedures";
import { checkOwnWatch, watchOwner } from "./read-price-watches";
import { ZListPriceWatchEvaluationsRequest, ZPriceWatchEvaluationList } from "./price-watch.schema";
import { listWatchEvaluations } from "./store/evaluations";
import { toWireEvaluation } from "./evaluation-view";

export const listPriceWatchEvaluations = procedure({
  caller: "assistant",
  scope: "purchase:write",
})
  .input(ZListPriceWatchEvaluationsRequest)
  .output(ZPriceWatchEvaluationList)
  .query(async ({ ctx, input }) => {
    await checkOwnWatch(ctx.db, watchOwner(ctx.actor), input.price_watch_id);
    const { rows, total } = await listWatchEvaluations(ctx.db, input.price_watch_id, {
      skip: (input.page - 1) * input.per_page,
      take: input.per_page,
    });
    return {
      data: rows.map(toWireEvaluation),
      pagination: {
        page: input.page,
        per_page: input.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / input.per_page)),
      },
    };
  });
