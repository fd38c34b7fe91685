/**
 * Sandbox helpers for assistant purchases (a test clock for the client's own purchases):
 * - POST /sandbox/purchases/{purchase_id}/advance: a held purchase's charges_at and cancel_until
 *   move to now and the charge runs (chargeDuePurchase, as the sweep and the Inngest function do):
 *   it ends paid, or cancelled with item_sold / notice_undelivered when that applies.
 * - POST /sandbox/purchases/{purchase_id}/resolve {"outcome"}: a purchase left processing by the
 *   late card (4000 0000 0000 0408) gets the bank's answer (the sandbox processor's hold stays
 *   authorized, or is declined) and it is recorded (completeLateAuthorize): held, or requires_person.
 * Both answer the reference's Purchase (as GET /purchases/{id}); any other purchase is answered as
 * it is. Another client's or person's purchase is not_found.
 */
import { procedure } from "../platform/trpc/procedures";
import { paymentProvider } from "../payments";
import { declinePendingAuthorize, processorKey } from "../payments";
import { chargeDuePurchase } from "../purchases";
import { completeLateAuthorize } from "../purchases";
import { assertSandbox } from "./sandbox-only";
import { findOwnPurchase, readOwnPurchase } from "../purchases";
import { ZPurchase, ZPurchaseIdParams } from "../purchases";
import { ZResolvePurchaseInput } from "./sandbox.schema";
import { makePurchaseDueNow } from "./store";

export const advancePurchase = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZPurchaseIdParams)
  .output(ZPurchase)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const purchase = await findOwnPurchase(ctx.db, ctx.actor, input.purchase_id);
    if (purchase.status === "held" || purchase.status === "capturing") {
      await makePurchaseDueNow(ctx.db, { id: purchase.id, now });
      await chargeDuePurchase(ctx.db, purchase.id, { now, provider: paymentProvider() });
    }
    return readOwnPurchase(ctx.db, ctx.actor, purchase.id);
  });

export const resolvePurchase = procedure({ caller: "assistant", scope: "purchase:write" })
  .input(ZResolvePurchaseInput)
  .output(ZPurchase)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const purchase = await findOwnPurchase(ctx.db, ctx.actor, input.purchase_id);
    if (purchase.status === "processing") {
      if (input.outcome === "declined") {
        // The bank's pending answer turns out a decline: the sandbox processor's hold never was.
        await declinePendingAuthorize(
          ctx.db,
          processorKey({ kind: "purchase", id: purchase.id }, "authorize"),
        );
      }
      await completeLateAuthorize(ctx.db, paymentProvider(), { id: purchase.id, now });
    }
    return readOwnPurchase(ctx.db, ctx.actor, purchase.id);
  });
