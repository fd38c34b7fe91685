/**
 * The cancel page of an assistant purchase (app/purchases/[id]/cancel), reached from the copy
 * email's link. The token is signed for this purchase and this purpose only (server/platform/mail/links.ts).
 * `inspectCancel` only reads (the page's GET; mail scanners open links); `cancel` is the page's
 * POST and calls the one use case, cancelPurchase: before cancel_until it cancels, a second POST
 * says already cancelled, afterwards it says too late and why.
 */
import { z } from "zod";
import { publicPurchaseStatus } from "./states";
import { formatCents } from "../core/money";
import { AppError } from "../core/errors";
import { paymentProvider } from "../payments";
import { cancelPurchase } from "./cancel-purchase";
import { purchaseOfCancelToken } from "./purchase-emails";
import { router } from "../platform/trpc/init";
import { publicProcedure } from "../platform/trpc/procedures";
import { findCancelPageView, purchaseExists } from "./store/purchases";

const ZCancelLink = z.object({
  id: z.string().startsWith("pur_").max(64),
  token: z.string().min(1).max(1000),
});

const invalidLink = () =>
  new AppError("invalid_link", {
    message:
      "This cancel link is not valid. Use the link in the email we sent about this purchase.",
  });

const checkToken = (input: z.infer<typeof ZCancelLink>, now: Date) => {
  if (purchaseOfCancelToken(input.token, now) !== input.id) throw invalidLink();
};

const inspectCancel = publicProcedure.input(ZCancelLink).query(async ({ ctx, input }) => {
  const now = ctx.clock.now();
  checkToken(input, now);
  const purchase = await findCancelPageView(ctx.db, input.id);
  if (!purchase) throw invalidLink();
  return {
    purchase_id: input.id,
    status: publicPurchaseStatus(purchase.status),
    reason: purchase.reason,
    order_number: purchase.orderNumber,
    grand_total: formatCents(purchase.grandTotalCents),
    cancel_until: purchase.cancelUntil.toISOString(),
    charges_at: purchase.chargesAt?.toISOString() ?? null,
    can_cancel: purchase.status === "held" && purchase.cancelUntil > now,
  };
});

const cancel = publicProcedure.input(ZCancelLink).mutation(async ({ ctx, input }) => {
  const now = ctx.clock.now();
  checkToken(input, now);
  if (!(await purchaseExists(ctx.db, input.id))) throw invalidLink();
  const result = await cancelPurchase(ctx.db, paymentProvider(), {
    id: input.id,
    now,
    by: "person",
  });
  return {
    purchase_id: input.id,
    status: result.status,
    already_cancelled: result.alreadyCancelled,
    reason: result.reason,
  };
});

export const purchasePageRouter = router({ inspectCancel, cancel });
