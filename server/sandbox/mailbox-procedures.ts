/**
 * The sandbox mailbox: the email the service sent, readable without SMTP. Sandbox only, and only
 * the signed-in person's own mail: messages to their confirmed address sent since the account
 * was created (before confirming, only the confirmation email, so a newcomer can confirm without
 * SMTP). Another person's message is not_found. The operator reads any message through
 * `npm run ops -- mail:list` / `mail:show`.
 */
import { z } from "zod";
import type { Db } from "../platform/db";
import { env } from "../platform/env";
import { AppError } from "../core/errors";
import { shopperProcedure } from "../platform/trpc/procedures";
import { router } from "../platform/trpc/init";

const sandboxOnly = () => {
  if (env().SERVICE_ENV !== "sandbox") throw new AppError("not_found");
};

/** The messages this person may read, as a Prisma filter. */
const ownMail = async (db: Db, personId: string) => {
  const person = await db.person.findUniqueOrThrow({
    where: { id: personId },
    select: { email: true, emailVerifiedAt: true, createdAt: true },
  });
  return {
    status: "sent" as const,
    to: person.email,
    createdAt: { gte: person.createdAt },
    ...(person.emailVerifiedAt ? {} : { template: "verify-email" }),
  };
};

export const mailboxRouter = router({
  /** `to` is accepted for old links and ignored: the list is always the person's own mail. */
  list: shopperProcedure
    .input(z.object({ to: z.string().max(320).optional() }))
    .query(async ({ ctx }) => {
      sandboxOnly();
      return ctx.db.emailMessage.findMany({
        where: await ownMail(ctx.db, ctx.personId),
        orderBy: { sentAt: "desc" },
        take: 100,
        select: { id: true, to: true, subject: true, text: true, sentAt: true, transport: true },
      });
    }),
  html: shopperProcedure
    .input(z.object({ id: z.string().max(64) }))
    .query(async ({ ctx, input }) => {
      sandboxOnly();
      const email = await ctx.db.emailMessage.findFirst({
        where: { id: input.id, ...(await ownMail(ctx.db, ctx.personId)) },
        select: { html: true },
      });
      if (!email?.html) throw new AppError("not_found");
      return email.html;
    }),
});
