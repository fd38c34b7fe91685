/**
 * The signed-in shopper asks for a new confirmation email (throttled by the outbox dedupe key),
 * written in their saved language, else the language of the page they asked from.
 */
import { enqueueVerificationEmail } from "../../auth";
import { shopperProcedure } from "../../platform/trpc/procedures";
import { readConfirmationRecipient } from "../store/persons";
import { ZResendConfirmationInput } from "./shopper-auth.schema";

export const resendConfirmation = shopperProcedure
  .input(ZResendConfirmationInput)
  .mutation(async ({ ctx, input }) => {
    const person = await readConfirmationRecipient(ctx.db, ctx.personId);
    if (person.emailVerifiedAt) return { email: person.email, already_confirmed: true };
    await enqueueVerificationEmail(ctx.db, person, ctx.clock.now(), input?.locale);
    return { email: person.email, already_confirmed: false };
  });
