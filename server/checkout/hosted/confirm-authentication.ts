/**
 * The page's authentication step (3-D Secure in the sandbox): the person confirms or fails it, the
 * processor records the outcome, and an authenticated payment is finalised like any other.
 */
import { AppError } from "../../core/errors";
import { paymentProvider } from "../../payments";
import { confirmPayment } from "../../payments";
import { publicProcedure } from "../../platform/trpc/procedures";
import { findCheckoutAttempt } from "../store/borrowed";
import { declinedOutcome } from "./pay";
import { finalizePayment } from "./finalize-payment";
import { recordPayDecline } from "./pay-limits";
import { type PayOutcome, ZConfirmAuthentication } from "./page.schema";

export const confirmAuthentication = publicProcedure
  .input(ZConfirmAuthentication)
  .mutation(async ({ ctx, input }): Promise<PayOutcome> => {
    const payment = await findCheckoutAttempt(ctx.db, {
      id: input.payment_id,
      checkoutId: input.id,
    });
    if (!payment?.processorPaymentId)
      throw new AppError("not_found", { message: "No such payment." });
    if (payment.status !== "requires_action")
      throw new AppError("checkout_closed", {
        message: "This payment step is no longer open; start the payment again.",
      });
    const provider = paymentProvider();
    const result = await confirmPayment(ctx.db, provider, {
      payment: { ...payment, processorPaymentId: payment.processorPaymentId },
      authenticated: input.authenticated,
    });
    if (result.kind !== "authorized") {
      await recordPayDecline(ctx.clientAddress);
      return declinedOutcome(result.kind === "declined" ? result.declineCode : null);
    }
    return finalizePayment(ctx.db, provider, {
      payment: { ...payment, checkoutId: input.id },
      processorPaymentId: result.processorPaymentId,
      now: ctx.clock.now(),
    });
  });
