/**
 * GET /products/{id}: one listed item with its variants and images; 404 when not listed (removed,
 * or its store cannot sell now). A sold item is listed, as not available (ADR 0040).
 */
import { AppError } from "../core/errors";
import { toProductDetail } from "./product-json";
import { procedure } from "../platform/trpc/procedures";
import { ZGetProductRequest, ZProductDetail } from "./catalog.schema";
import { findListedProduct } from "./store/products";
import { watchCountsFor } from "./watch-counts";

export const getProduct = procedure({ caller: "partner", scope: "catalog:read" })
  .input(ZGetProductRequest)
  .output(ZProductDetail)
  .query(async ({ ctx, input }) => {
    const row = await findListedProduct(ctx.db, input.id);
    if (!row) throw new AppError("not_found", { message: `No item ${input.id} is listed.` });
    const [watches] = await watchCountsFor(ctx, [row.id]);
    return toProductDetail(row, watches);
  });
