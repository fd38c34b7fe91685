/**
 * GET /purchases/{purchase_id} (purchases.get, scope purchase:write): the purchase as it is now,
 * e.g. a 202 processing followed until reconciliation settles it. Only the purchase's person,
 * through the client that made it: anyone else gets 404 (never 403, B2-12).
 */
import { AppError } from "../../errors";
import { scopedProcedure } from "../../trpc/procedures";
import { toWirePurchase } from "./purchase-view";
import { ZPurchase, ZPurchaseIdParams } from "./purchase.schema";

export const getPurchase = scopedProcedure("purchase:write")
  .input(ZPurchaseIdParams)
  .output(ZPurchase)
  .query(async ({ ctx, input }) => {
    const actor = ctx.actor;
    const owner = actor.kind === "client" ? { clientId: actor.clientId, personId: actor.personId ?? "" } : {};
    const purchase = await ctx.db.purchase.findFirst({ where: { id: input.purchase_id, ...owner } });
    if (!purchase) throw new AppError("not_found", { message: `No purchase ${input.purchase_id}.` });
    const checkout =
      purchase.status === "requires_person"
        ? await ctx.db.checkout.findFirst({ where: { quoteId: purchase.quoteId, clientId: purchase.clientId, personId: purchase.personId }, orderBy: { createdAt: "desc" }, select: { id: true, expiresAt: true } })
        : null;
    return toWirePurchase(purchase, checkout);
  });
