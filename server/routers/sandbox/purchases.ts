/**
 * Sandbox helpers for assistant purchases (a test clock for the client's own purchases):
 * - POST /sandbox/purchases/{purchase_id}/advance: a held purchase's charges_at and cancel_until
 *   move to now and the charge runs (chargeDuePurchase, as the sweep and the Inngest function do):
 *   it ends paid, or cancelled with item_sold / notice_undelivered when that applies.
 * - POST /sandbox/purchases/{purchase_id}/resolve {"outcome"}: a purchase left processing by the
 *   late card (4000 0000 0000 0408) gets the bank's answer (the sandbox processor's hold stays
 *   authorized, or is declined) and it is recorded (completeLateAuthorize): held, or requires_person.
 * Any other purchase is answered as it is. A purchase belongs to the client and, for a linked
 * token, to the person on it: another's is not_found.
 */
import { AppError } from "../../errors";
import type { Context } from "../../trpc/context";
import { scopedProcedure } from "../../trpc/procedures";
import { publicPurchaseStatus } from "../../domain/purchase-state";
import { paymentProvider } from "../../payments";
import { processorKey } from "../../payments/provider";
import { chargeDuePurchase } from "../../purchases/charge-purchase";
import { completeLateAuthorize } from "../../purchases/complete-late-authorize";
import { assertSandbox } from "./sandbox-only";
import { type TSandboxPurchase, ZPurchaseIdParams, ZResolvePurchaseInput, ZSandboxPurchase } from "./sandbox.schema";

const findOwnPurchase = async (ctx: Context, id: string) => {
  const { actor } = ctx;
  const owner = actor.kind === "client" ? { clientId: actor.clientId, ...(actor.personId ? { personId: actor.personId } : {}) } : actor.kind === "system" ? {} : { clientId: "" };
  const purchase = await ctx.db.purchase.findFirst({
    where: { id, ...owner },
    select: { id: true, status: true, reason: true, cancelledBy: true, orderNumber: true, chargesAt: true, cancelUntil: true },
  });
  if (!purchase) throw new AppError("not_found", { message: `No purchase ${id}.` });
  return purchase;
};

const toSandboxPurchase = (purchase: Awaited<ReturnType<typeof findOwnPurchase>>): TSandboxPurchase => ({
  purchase_id: purchase.id,
  status: publicPurchaseStatus(purchase.status),
  order_number: purchase.orderNumber,
  charges_at: purchase.chargesAt?.toISOString() ?? null,
  cancel_until: purchase.cancelUntil.toISOString(),
  error: purchase.reason && purchase.cancelledBy !== "person" ? { code: purchase.reason } : null,
});

export const advancePurchase = scopedProcedure("purchase:write")
  .input(ZPurchaseIdParams)
  .output(ZSandboxPurchase)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const purchase = await findOwnPurchase(ctx, input.purchase_id);
    if (purchase.status === "held" || purchase.status === "capturing") {
      await ctx.db.purchase.updateMany({ where: { id: purchase.id, status: "held", chargesAt: { gt: now } }, data: { chargesAt: now, cancelUntil: now } });
      await chargeDuePurchase(ctx.db, purchase.id, { now, provider: paymentProvider(ctx.db) });
    }
    return toSandboxPurchase(await findOwnPurchase(ctx, purchase.id));
  });

export const resolvePurchase = scopedProcedure("purchase:write")
  .input(ZResolvePurchaseInput)
  .output(ZSandboxPurchase)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const purchase = await findOwnPurchase(ctx, input.purchase_id);
    if (purchase.status === "processing") {
      if (input.outcome === "declined") {
        // The bank's pending answer turns out a decline: the sandbox processor's hold never was.
        await ctx.db.sandboxPayment.updateMany({
          where: { idempotencyKey: processorKey({ kind: "purchase", id: purchase.id }, "authorize"), status: "authorized" },
          data: { status: "declined", declineCode: "card_declined" },
        });
      }
      await completeLateAuthorize(ctx.db, paymentProvider(ctx.db), { id: purchase.id, now });
    }
    return toSandboxPurchase(await findOwnPurchase(ctx, purchase.id));
  });
