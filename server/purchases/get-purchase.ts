/**
 * GET /purchases/{purchase_id} (purchases.get, scope purchase:write): the purchase as it is now,
 * e.g. a 202 processing followed until reconciliation settles it. Only the purchase's person,
 * through the client that made it: anyone else gets 404 (never 403, B2-12).
 */
import { procedure } from "../platform/trpc/procedures";
import { readOwnPurchase } from "./store/own-purchases";
import { ZPurchase, ZPurchaseIdParams } from "./purchase.schema";

export const getPurchase = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPurchaseIdParams)
  .output(ZPurchase)
  .query(({ ctx, input }) => readOwnPurchase(ctx.db, ctx.actor, input.purchase_id));
