/**
 * Saving a card with Stripe's Payment Element (the Stripe processor): `startCardSetup` opens a
 * SetupIntent (`usage: off_session`) for the person's Stripe Customer, made once and remembered on
 * the person, and gives the page only its client secret; Stripe.js confirms it in the browser (the
 * card never reaches us); `completeCardSetup` is the page's return, which asks Stripe.
 */
import { z } from "zod";
import { randomId } from "../core/ids";
import { AppError } from "../core/errors";
import { paymentProvider } from "../payments";
import { isUnknownOutcome } from "../payments";
import { shopperProcedure } from "../platform/trpc/procedures";
import { completeCardSetup as completeSetup } from "./complete-card-setup";
import { ZSavedCardResponse } from "./saved-card.schema";
import { toSavedCardResponse } from "./account-views";
import { readCustomerOfPerson, rememberProcessorCustomer } from "./store/persons";

const unavailable = (error: unknown) => {
  if (isUnknownOutcome(error))
    throw new AppError("unavailable", {
      message: "The card processor did not answer. Nothing was saved; try again.",
      retryAfter: 5,
    });
  throw error;
};

export const startCardSetup = shopperProcedure
  .output(z.object({ client_secret: z.string() }))
  .mutation(async ({ ctx }) => {
    const provider = paymentProvider();
    if (provider.name !== "stripe")
      throw new AppError("invalid_request", {
        message: "This service saves the sandbox's test cards with its own form.",
      });
    const person = await readCustomerOfPerson(ctx.db, ctx.personId);
    const started = await provider
      .startCardSetup({
        idempotencyKey: `${ctx.personId}:card-setup:${randomId("att_")}`,
        customerId: person.processorCustomerId ?? undefined,
        email: person.email,
        metadata: { person_id: ctx.personId },
      })
      .catch(unavailable);
    if (!person.processorCustomerId) {
      // Remembered once; a concurrent first setup that lost the race leaves an unused Customer at Stripe, never referenced.
      const isRemembered = await rememberProcessorCustomer(ctx.db, {
        personId: ctx.personId,
        customerId: started.customerId,
      });
      if (!isRemembered)
        throw new AppError("payment_in_progress", {
          message: "Another card is being saved; try again.",
          retryAfter: 2,
        });
    }
    return { client_secret: started.clientSecret };
  });

export const completeCardSetup = shopperProcedure
  .input(
    z.object({ setup_intent: z.string().regex(/^seti_\w{1,250}$/, "is not a SetupIntent id") }),
  )
  .output(ZSavedCardResponse)
  .mutation(async ({ ctx, input }) => {
    const outcome = await completeSetup(ctx.db, paymentProvider(), {
      setupIntentId: input.setup_intent,
      now: ctx.clock.now(),
    }).catch(unavailable);
    if (!outcome || outcome.personId !== ctx.personId)
      throw new AppError("not_found", { message: "No card being saved here: save it again." });
    if ("failed" in outcome)
      throw new AppError("invalid_request", {
        message:
          "The card was not saved: your bank declined it or could not confirm it. Try another card.",
      });
    return toSavedCardResponse(outcome.card);
  });
