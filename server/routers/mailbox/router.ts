/** The sandbox mailbox: every email the service sent, readable without SMTP. Sandbox only. */
import { z } from "zod";
import { env } from "../../env";
import { AppError } from "../../errors";
import { publicProcedure } from "../../trpc/procedures";
import { router } from "../../trpc/init";

const sandboxOnly = () => {
  if (env().SERVICE_ENV !== "sandbox") throw new AppError("not_found");
};

export const mailboxRouter = router({
  list: publicProcedure.input(z.object({ to: z.string().max(320).optional() })).query(async ({ ctx, input }) => {
    sandboxOnly();
    return ctx.db.emailMessage.findMany({
      where: { status: "sent", ...(input.to ? { to: input.to.toLowerCase() } : {}) },
      orderBy: { sentAt: "desc" },
      take: 100,
      select: { id: true, to: true, subject: true, text: true, sentAt: true, transport: true },
    });
  }),
  html: publicProcedure.input(z.object({ id: z.string().max(64) })).query(async ({ ctx, input }) => {
    sandboxOnly();
    const email = await ctx.db.emailMessage.findUnique({ where: { id: input.id }, select: { html: true } });
    if (!email?.html) throw new AppError("not_found");
    return email.html;
  }),
});
