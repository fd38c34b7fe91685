/**
 * The hosted page's pay step: opens an attempt (checks state, time, stock and prices again), asks
 * the processor for a hold (server/payments, key derived from the attempt), then records a decline,
 * asks for the person's authentication, or places the orders and captures. A declined card leaves
 * the checkout payable; a bank that does not answer leaves the attempt to the settlement sweep.
 */
import { AppError } from "../../core/errors";
import { paymentProvider } from "../../payments";
import {
  authorizePayment,
  isProcessorRefusal,
  refuseMethodTheProcessorCannotTake,
} from "../../payments";
import type { PaymentMethod } from "../../payments";
import { publicProcedure } from "../../platform/trpc/procedures";
import { finalizePayment } from "./finalize-payment";
import { admitPayAttempt, recordPayDecline } from "./pay-limits";
import { type DeclineReason, type PayOutcome, ZPay } from "./page.schema";
import { closeRefusedAttempt, releaseAbandoned, startAttempt } from "./payment-attempt";

const declineMessages: Record<string, string> = {
  card_declined: "Your card was declined. Try another card or pay with Link.",
  authentication_failed: "Your bank could not confirm this payment. Try again or use another card.",
  payment_intent_authentication_failure:
    "Your bank could not confirm this payment. Try again or use another card.",
  test_mode_live_card: "This is the sandbox: use a test card such as 4242 4242 4242 4242.",
};

const declineReasons: Record<string, DeclineReason> = {
  card_declined: "card_declined",
  authentication_failed: "authentication_failed",
  payment_intent_authentication_failure: "authentication_failed",
  test_mode_live_card: "test_mode_live_card",
};

export const declinedOutcome = (declineCode: string | null): PayOutcome => ({
  outcome: "declined",
  reason: declineReasons[declineCode ?? ""] ?? "declined",
  message: declineMessages[declineCode ?? ""] ?? "The payment was declined.",
});

export const pay = publicProcedure
  .input(ZPay)
  .mutation(async ({ ctx, input }): Promise<PayOutcome> => {
    const now = ctx.clock.now();
    const card = input.method.type === "card" ? input.method : undefined;
    // Before anything is counted, opened or sent: in production the page pays through the
    // processor's own form (start-intent.ts), and a card number posted here is refused unseen.
    refuseMethodTheProcessorCannotTake(
      input.method,
      "Pay with the card form on the checkout page.",
    );
    if (
      card &&
      card.exp_year * 12 + card.exp_month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1
    ) {
      throw new AppError("invalid_request", {
        fields: { "method.exp_year": "the card has expired" },
      });
    }
    const method: PaymentMethod = card
      ? {
          type: "card",
          number: card.number,
          expMonth: card.exp_month,
          expYear: card.exp_year,
          cvc: card.cvc,
        }
      : { type: "link", email: input.method.type === "link" ? input.method.email : "" };
    await admitPayAttempt(ctx.clientAddress);
    const payment = await startAttempt(ctx.db, {
      checkoutId: input.id,
      method: method.type,
      cardLast4: card ? card.number.slice(-4) : null,
      buyerLanguage: input.language,
      now,
    });
    const provider = paymentProvider();
    await releaseAbandoned(ctx.db, provider, payment.abandoned, now);
    const result = await authorizePayment(ctx.db, provider, {
      payment,
      method,
      description: `Checkout ${payment.checkoutId}`,
    }).catch((error: unknown) => {
      if (!isProcessorRefusal(error)) throw error;
      return closeRefusedAttempt(ctx.db, { id: payment.id, reason: error.reason, now });
    });
    if (result.kind === "declined") {
      await recordPayDecline(ctx.clientAddress);
      return declinedOutcome(result.declineCode);
    }
    if (result.kind === "requires_action")
      return { outcome: "requires_action", paymentId: payment.id };
    if (result.kind === "unknown") {
      throw new AppError("payment_in_progress", {
        message:
          "Your bank has not answered yet. Nothing is charged unless it approves; try again in a minute.",
        retryAfter: 60,
      });
    }
    // The processor may take a while: the link's expiry is judged when the hold comes back.
    return finalizePayment(ctx.db, provider, {
      payment,
      processorPaymentId: result.processorPaymentId,
      now: ctx.clock.now(),
    });
  });
