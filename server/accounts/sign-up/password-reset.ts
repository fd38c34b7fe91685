/**
 * Forgotten password: `requestPasswordReset` emails a one-hour link when the address has an
 * account and answers the same either way; `inspectPasswordReset` checks a link without using it;
 * `resetPassword` sets the new password, which also kills the link (it is bound to the old hash)
 * and every session signed in before. Receiving the email proves the address, so it is confirmed.
 */
import { enqueuePasswordResetEmail, isResetLinkFresh, readPasswordResetToken } from "../../auth";
import { hashPassword } from "../../auth";
import { AppError } from "../../core/errors";
import type { Context } from "../../platform/trpc/context";
import { publicProcedure } from "../../platform/trpc/procedures";
import {
  ZLinkTokenInput,
  ZRequestPasswordResetInput,
  ZResetPasswordInput,
} from "./shopper-auth.schema";
import { findResetRequester, findResetTarget, replacePassword } from "../store/persons";

const invalid = () =>
  new AppError("invalid_link", {
    message: "This reset link has expired or was already used. Ask for a new one.",
  });

export const requestPasswordReset = publicProcedure
  .input(ZRequestPasswordResetInput)
  .mutation(async ({ ctx, input }) => {
    const person = await findResetRequester(ctx.db, input.email);
    if (person) await enqueuePasswordResetEmail(ctx.db, person, ctx.clock.now(), input.locale);
    return { email: input.email, sent_if_registered: true };
  });

/** The person of a valid, unused reset link, or throws invalid_link. */
const personOfLink = async (ctx: Context, token: string) => {
  const link = readPasswordResetToken(token, ctx.clock.now());
  const person = link && (await findResetTarget(ctx.db, link.personId));
  if (!link || !person || !isResetLinkFresh(link.fingerprint, person.passwordHash)) throw invalid();
  return person;
};

export const inspectPasswordReset = publicProcedure
  .input(ZLinkTokenInput)
  .query(async ({ ctx, input }) => ({ email: (await personOfLink(ctx, input.token)).email }));

export const resetPassword = publicProcedure
  .input(ZResetPasswordInput)
  .mutation(async ({ ctx, input }) => {
    const person = await personOfLink(ctx, input.token);
    const now = ctx.clock.now();
    const passwordHash = await hashPassword(input.password);
    // Conditional on the old hash: of two submissions of the same link, one wins.
    const isReplaced = await replacePassword(ctx.db, {
      personId: person.id,
      oldHash: person.passwordHash,
      newHash: passwordHash,
      now,
      emailVerifiedAt: person.emailVerifiedAt ?? now,
    });
    if (!isReplaced) throw invalid();
    return { email: person.email, reset: true };
  });
