/**
 * The page's authentication step (3-D Secure in the sandbox): the person confirms or fails it, the
 * processor records the outcome, and an authenticated payment is finalised like any other.
 */
import { AppError } from "../../errors";
import { paymentProvider } from "../../payments";
import { processorKey } from "../../payments/provider";
import { publicProcedure } from "../../trpc/procedures";
import { declineMessages } from "./pay";
import { finalizePayment } from "./finalize-payment";
import { type PayOutcome, ZConfirmAuthentication } from "./page.schema";

export const confirmAuthentication = publicProcedure.input(ZConfirmAuthentication).mutation(async ({ ctx, input }): Promise<PayOutcome> => {
  const payment = await ctx.db.payment.findFirst({ where: { id: input.payment_id, checkoutId: input.id }, select: { id: true, checkoutId: true, attempt: true, status: true, processorPaymentId: true } });
  if (!payment?.processorPaymentId) throw new AppError("not_found", { message: "No such payment." });
  if (payment.status !== "requires_action") throw new AppError("checkout_closed", { message: "This payment step is no longer open; start the payment again." });
  const provider = paymentProvider(ctx.db);
  const result = await provider.confirm({ idempotencyKey: processorKey(payment, "confirm"), paymentId: payment.processorPaymentId, authenticated: input.authenticated });
  if (result.status !== "authorized") {
    await ctx.db.payment.updateMany({ where: { id: payment.id, status: "requires_action" }, data: { status: "declined", declineCode: result.declineCode } });
    return { outcome: "declined", message: declineMessages[result.declineCode ?? ""] ?? "The payment was declined." };
  }
  return finalizePayment(ctx.db, provider, { payment, processorPaymentId: result.id, now: ctx.clock.now() });
});
