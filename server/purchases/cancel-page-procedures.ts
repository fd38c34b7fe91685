/**
 * The cancel page of an assistant purchase (app/purchases/[id]/cancel), reached from the copy
 * email's link. The token is signed for this purchase and this purpose only (server/platform/mail/links.ts).
 * `inspectCancel` only reads (the page's GET; mail scanners open links); `cancel` is the page's
 * POST and calls the one use case, cancelPurchase: before cancel_until it cancels, a second POST
 * says already cancelled, afterwards it says too late and why.
 */
import { z } from "zod";
import { formatCents } from "../core/money";
import { AppError } from "../core/errors";
import { paymentProvider } from "../payments";
import { cancelPurchase } from "./cancel-purchase";
import { purchaseOfCancelToken } from "./purchase-emails";
import { router } from "../platform/trpc/init";
import { publicProcedure } from "../platform/trpc/procedures";
import { findCancelPageView, purchaseExists, readWhatWasBought } from "./store/purchases";
import { publicPurchaseStatus, type PurchaseState } from "./states";
import { readReadingPreferences } from "../accounts";
import { findClientContact } from "../auth";

export const ZCancelLink = z.object({
  id: z.string().startsWith("pur_").max(64),
  token: z.string().min(1).max(1000),
});

const invalidLink = () =>
  new AppError("invalid_link", {
    message:
      "This cancel link is not valid. Use the link in the email we sent about this purchase.",
  });

/** The link's token, signed for this purchase and this purpose; invalid_link otherwise. */
export const checkCancelLink = (input: z.infer<typeof ZCancelLink>, now: Date) => {
  if (purchaseOfCancelToken(input.token, now) !== input.id) throw invalidLink();
};

/** What the page says, from the purchase's status and the cancel deadline. */
const cancelPageState = (purchase: { status: PurchaseState; cancelUntil: Date }, now: Date) => {
  switch (purchase.status) {
    case "held":
    case "capturing":
      return purchase.status === "held" && purchase.cancelUntil > now
        ? ("cancellable" as const)
        : ("too_late" as const);
    case "paid":
      return "charged" as const;
    case "refunded":
      return "refunded" as const;
    case "cancelled":
      return "cancelled" as const;
    default:
      return "nothing_held" as const;
  }
};

/**
 * The page's GET: the purchase, what it bought, who bought it and the person's zone (their saved
 * province's; the page names it once). Only reads. The token is the proof of whose it is: a token
 * for another purchase is invalid_link, so nobody reads another person's purchase.
 */
const inspectCancel = publicProcedure.input(ZCancelLink).query(async ({ ctx, input }) => {
  const now = ctx.clock.now();
  checkCancelLink(input, now);
  const purchase = await findCancelPageView(ctx.db, input.id);
  const summary = purchase && (await readWhatWasBought(ctx.db, input.id));
  if (!purchase || !summary) throw invalidLink();
  const [client, reading] = await Promise.all([
    findClientContact(ctx.db, purchase.clientId),
    readReadingPreferences(ctx.db, purchase.personId),
  ]);
  const state = cancelPageState(purchase, now);
  return {
    purchase_id: input.id,
    state,
    status: publicPurchaseStatus(purchase.status),
    reason: purchase.reason,
    order_number: purchase.orderNumber,
    grand_total: formatCents(purchase.grandTotalCents),
    grand_total_cents: purchase.grandTotalCents,
    cancel_until: purchase.cancelUntil.toISOString(),
    charges_at: purchase.chargesAt?.toISOString() ?? null,
    charged_at: purchase.paidAt?.toISOString() ?? null,
    created_at: purchase.createdAt.toISOString(),
    can_cancel: state === "cancellable",
    assistant: client?.name ?? "",
    time_zone: reading.timeZone,
    summary,
    now: now.toISOString(),
  };
});

const cancel = publicProcedure.input(ZCancelLink).mutation(async ({ ctx, input }) => {
  const now = ctx.clock.now();
  checkCancelLink(input, now);
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
