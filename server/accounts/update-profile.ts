/**
 * The shopper changes their name or email. A new address must be confirmed again (until then the
 * person cannot approve apps); the confirmation email goes out in the same transaction.
 */
import { enqueueVerificationEmail } from "../auth";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { ZUpdateProfileInput } from "./account.schema";

export const updateProfile = shopperProcedure
  .input(ZUpdateProfileInput)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    return ctx.db.$transaction(async (tx) => {
      const person = await tx.person.findUniqueOrThrow({
        where: { id: ctx.personId },
        select: { email: true },
      });
      const isNewEmail = input.email !== person.email;
      if (
        isNewEmail &&
        (await tx.person.findUnique({ where: { email: input.email }, select: { id: true } }))
      ) {
        throw new AppError("invalid_request", {
          fields: { email: "is already used by another account" },
        });
      }
      const updated = await tx.person.update({
        where: { id: ctx.personId },
        data: {
          name: input.name,
          email: input.email,
          ...(isNewEmail ? { emailVerifiedAt: null } : {}),
        },
        select: { id: true, name: true, email: true },
      });
      if (isNewEmail) await enqueueVerificationEmail(tx, updated, now);
      return { name: updated.name, email: updated.email, confirmation_sent: isNewEmail };
    });
  });
