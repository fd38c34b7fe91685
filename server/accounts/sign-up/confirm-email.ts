/**
 * Email confirmation from the emailed link. `inspectConfirmation` only reads (the page GET shows a
 * button); `confirmEmail` changes state (the page POST). The link confirms the exact address it
 * was sent to, so after an email change the old link does nothing.
 */
import { readVerificationToken } from "../../auth";
import { AppError } from "../../core/errors";
import { publicProcedure } from "../../platform/trpc/procedures";
import { ZLinkTokenInput } from "./shopper-auth.schema";
import { confirmEmailAddress, findEmailConfirmation, hasEmail } from "../store/persons";

const expired = () =>
  new AppError("invalid_link", {
    message: "This confirmation link has expired or is not valid. Sign in to send a new one.",
  });

export const inspectConfirmation = publicProcedure
  .input(ZLinkTokenInput)
  .query(async ({ ctx, input }) => {
    const link = readVerificationToken(input.token, ctx.clock.now());
    if (!link) throw expired();
    const person = await findEmailConfirmation(ctx.db, link.personId);
    if (!person || person.email !== link.email) throw expired();
    return { email: person.email, already_confirmed: person.emailVerifiedAt !== null };
  });

export const confirmEmail = publicProcedure
  .input(ZLinkTokenInput)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const link = readVerificationToken(input.token, now);
    if (!link) throw expired();
    const isConfirmed = await confirmEmailAddress(ctx.db, {
      personId: link.personId,
      email: link.email,
      now,
    });
    if (!isConfirmed && !(await hasEmail(ctx.db, { personId: link.personId, email: link.email })))
      throw expired();
    return { email: link.email, confirmed: true };
  });
