/**
 * The sandbox mailbox: the email the service sent, readable without SMTP. Sandbox only, and only
 * the signed-in person's own mail: messages to their confirmed address sent since the account
 * was created (before confirming, only the confirmation email, so a newcomer can confirm without
 * SMTP). Another person's message is not_found. The operator reads any message through
 * `npm run ops -- mail:list` / `mail:show`.
 */
import { z } from "zod";
import { readMailboxOwner } from "../accounts";
import type { Db } from "../platform/db";
import { env } from "../platform/env";
import { findMailboxHtml, listMailbox, type MailboxFilter } from "../platform/mail/mailbox";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { router } from "../platform/trpc/init";

const sandboxOnly = () => {
  if (env().SERVICE_ENV !== "sandbox") throw new AppError("not_found");
};

/** The messages this person may read. */
const ownMail = async (db: Db, personId: string): Promise<MailboxFilter> => {
  const person = await readMailboxOwner(db, personId);
  return {
    to: person.email,
    since: person.createdAt,
    ...(person.emailVerifiedAt ? {} : { template: "verify-email" }),
  };
};

export const mailboxRouter = router({
  /** `to` is accepted for old links and ignored: the list is always the person's own mail. */
  list: shopperProcedure
    .input(z.object({ to: z.string().max(320).optional() }))
    .query(async ({ ctx }) => {
      sandboxOnly();
      return listMailbox(ctx.db, await ownMail(ctx.db, ctx.personId));
    }),
  html: shopperProcedure
    .input(z.object({ id: z.string().max(64) }))
    .query(async ({ ctx, input }) => {
      sandboxOnly();
      const html = await findMailboxHtml(ctx.db, await ownMail(ctx.db, ctx.personId), input.id);
      if (!html) throw new AppError("not_found");
      return html;
    }),
});
