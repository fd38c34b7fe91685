/**
 * GET /products/{id}/price-history: the item's prices over time, its lows over 30 and 90 days and
 * since listed, and its change from the previous price. 404 whenever GET /products/{id} is (unknown,
 * removed, or its store not selling); a sold item keeps its history.
 */
import { AppError } from "../core/errors";
import { procedure } from "../platform/trpc/procedures";
import { ZGetProductRequest } from "./catalog.schema";
import { ZPriceHistory } from "./price-history.schema";
import { toPriceHistory } from "./price-history-json";
import { readPriceHistory } from "./store/price-history";
import { isListedItem } from "./store/products";

export const getPriceHistory = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZGetProductRequest)
  .output(ZPriceHistory)
  .query(async ({ ctx, input }) => {
    const history = (await isListedItem(ctx.db, input.id))
      ? await readPriceHistory(ctx.db, input.id, ctx.clock.now())
      : undefined;
    if (!history) throw new AppError("not_found", { message: `No item ${input.id} is for sale.` });
    return toPriceHistory(history);
  });
