/** The signed-in shopper asks for a new confirmation email (throttled by the outbox dedupe key). */
import { enqueueVerificationEmail } from "../../auth";
import { shopperProcedure } from "../../platform/trpc/procedures";

export const resendConfirmation = shopperProcedure.mutation(async ({ ctx }) => {
  const person = await ctx.db.person.findUniqueOrThrow({
    where: { id: ctx.personId },
    select: { id: true, email: true, name: true, emailVerifiedAt: true },
  });
  if (person.emailVerifiedAt) return { email: person.email, already_confirmed: true };
  await enqueueVerificationEmail(ctx.db, person, ctx.clock.now());
  return { email: person.email, already_confirmed: false };
});
