/**
 * The shopper changes their name or email. A new address must be confirmed again (until then the
 * person cannot approve apps); the confirmation email goes out in the same transaction.
 */
import { enqueueVerificationEmail } from "../auth";
import { AppError } from "../core/errors";
import { inTransaction } from "../platform/db";
import { shopperProcedure } from "../platform/trpc/procedures";
import { isEmailTaken, readEmail, updateNameAndEmail } from "./store/persons";
import { ZUpdateProfileInput } from "./account.schema";

export const updateProfile = shopperProcedure
  .input(ZUpdateProfileInput)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    return inTransaction(ctx.db, async (tx) => {
      const isNewEmail = input.email !== (await readEmail(tx, ctx.personId));
      if (isNewEmail && (await isEmailTaken(tx, input.email))) {
        throw new AppError("invalid_request", {
          fields: { email: "is already used by another account" },
        });
      }
      const updated = await updateNameAndEmail(tx, {
        personId: ctx.personId,
        name: input.name,
        email: input.email,
        isNewEmail,
      });
      if (isNewEmail) await enqueueVerificationEmail(tx, updated, now, input.locale);
      return { name: updated.name, email: updated.email, confirmation_sent: isNewEmail };
    });
  });
