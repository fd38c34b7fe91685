/** The signed-in shopper asks for a new confirmation email (throttled by the outbox dedupe key). */
import { enqueueVerificationEmail } from "../../auth";
import { shopperProcedure } from "../../platform/trpc/procedures";
import { readConfirmationRecipient } from "../store/persons";

export const resendConfirmation = shopperProcedure.mutation(async ({ ctx }) => {
  const person = await readConfirmationRecipient(ctx.db, ctx.personId);
  if (person.emailVerifiedAt) return { email: person.email, already_confirmed: true };
  await enqueueVerificationEmail(ctx.db, person, ctx.clock.now());
  return { email: person.email, already_confirmed: false };
});
