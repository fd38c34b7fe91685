/**
 * Sign-up: creates the person with a scrypt password hash and sends the confirmation email in the
 * same transaction. The answer is the same whether the address is new or already has an account
 * (then its owner gets an email saying so), so the form never reveals who has an account.
 */
import { randomId } from "../../core/ids";
import { enqueueAccountExistsEmail, enqueueVerificationEmail } from "../../auth";
import { hashPassword } from "../../auth";
import { inTransaction } from "../../platform/db";
import { publicProcedure } from "../../platform/trpc/procedures";
import { findPersonByEmail, insertSignUp } from "../store/persons";
import { ZSignUpInput } from "./shopper-auth.schema";

export const signUp = publicProcedure.input(ZSignUpInput).mutation(async ({ ctx, input }) => {
  const now = ctx.clock.now();
  const passwordHash = await hashPassword(input.password);
  await inTransaction(ctx.db, async (tx) => {
    const existing = await findPersonByEmail(tx, input.email);
    if (existing) return enqueueAccountExistsEmail(tx, existing, now, input.locale);
    const person = await insertSignUp(tx, {
      id: randomId("per_"),
      email: input.email,
      name: input.name,
      passwordHash,
    });
    await enqueueVerificationEmail(tx, person, now, input.locale);
  });
  return { email: input.email, confirmation_sent: true };
});
