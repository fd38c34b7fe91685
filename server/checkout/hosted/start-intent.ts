/**
 * The hosted page's pay step with Stripe's Payment Element: opens an attempt (state, time, stock
 * and prices checked again, as for a card), cancels any intent an earlier attempt left open, and
 * opens ONE manual-capture PaymentIntent for the attempt (its key derived from the attempt, the
 * checkout in its metadata). The page gets only the client secret; Stripe.js confirms it in the
 * browser (the card never reaches us) and the page then asks completeIntent to finish.
 */
import { AppError } from "../../core/errors";
import { paymentProvider } from "../../payments";
import { isProcessorRefusal, isUnknownOutcome, ownerOf, processorKey } from "../../payments";
import { publicProcedure } from "../../platform/trpc/procedures";
import { isCheckoutIntent, moveAttempt } from "../store/borrowed";
import { completeCheckoutIntent } from "./complete-intent";
import { ZCompleteIntent, ZStartIntent } from "./page.schema";
import { admitPayAttempt, recordPayDecline } from "./pay-limits";
import { closeRefusedAttempt, releaseAbandoned, startAttempt } from "./payment-attempt";

export const startIntent = publicProcedure.input(ZStartIntent).mutation(async ({ ctx, input }) => {
  const provider = paymentProvider();
  if (provider.name !== "stripe")
    throw new AppError("invalid_request", {
      message: "This checkout takes the sandbox's test cards on the page.",
    });
  await admitPayAttempt(ctx.clientAddress);
  const now = ctx.clock.now();
  const payment = await startAttempt(ctx.db, {
    checkoutId: input.id,
    method: "payment_element",
    cardLast4: null,
    buyerLanguage: input.language,
    now,
  });
  await releaseAbandoned(ctx.db, provider, payment.abandoned, now);
  const idempotencyKey = processorKey(ownerOf(payment), "authorize");
  const intent = await provider
    .createIntent({
      idempotencyKey,
      amountCents: payment.amountCents,
      description: `Checkout ${payment.checkoutId}`,
      metadata: { payment_id: payment.id, checkout_id: payment.checkoutId },
    })
    .catch(async (error: unknown) => {
      // No answer: the attempt stays `authorizing` and the settlement sweep finds the intent by its key (if it was made) and cancels it.
      if (isUnknownOutcome(error))
        throw new AppError("payment_in_progress", {
          message:
            "The payment service did not answer. Nothing was charged; try again in a minute.",
          retryAfter: 60,
        });
      if (isProcessorRefusal(error))
        return closeRefusedAttempt(ctx.db, { id: payment.id, reason: error.reason, now });
      throw error;
    });
  // Awaiting the person: the page confirms the intent with Stripe.js.
  await moveAttempt(ctx.db, {
    id: payment.id,
    from: ["authorizing"],
    to: "requires_action",
    processorPaymentId: intent.id,
  });
  return { paymentId: payment.id, clientSecret: intent.clientSecret };
});

/** The page's return (after confirmPayment, or on the return_url): the intent must be one of this checkout's attempts; what it came to is asked of Stripe. */
export const completeIntent = publicProcedure
  .input(ZCompleteIntent)
  .mutation(async ({ ctx, input }) => {
    const owned = await isCheckoutIntent(ctx.db, {
      checkoutId: input.id,
      processorPaymentId: input.payment_intent,
    });
    if (!owned) throw new AppError("not_found", { message: "No such payment for this checkout." });
    const outcome = await completeCheckoutIntent(ctx.db, paymentProvider(), {
      processorPaymentId: input.payment_intent,
      now: ctx.clock.now(),
    }).catch((error: unknown) => {
      // Stripe did not answer our question about the payment: what the bank decided stands, and
      // the webhook or the sweep completes it (orders placed once, or the hold released).
      if (isUnknownOutcome(error))
        throw new AppError("payment_in_progress", {
          message:
            "We could not confirm your payment with the payment service just now. If your bank approved it, your order is placed within minutes and you are charged once; you can also reload this page in a minute.",
          retryAfter: 60,
        });
      throw error;
    });
    // A decline the page reports counts for its address, as on the sandbox's form (review M5).
    if (outcome?.outcome === "declined") await recordPayDecline(ctx.clientAddress);
    return outcome;
  });
