/**
 * Reads of the outbox (`email_messages`): the operator's `mail:list` / `mail:show` and the sandbox
 * mailbox page (server/sandbox/mailbox-procedures.ts), which shows a person only their own sent
 * mail. Prisma: read by people, a page at a time.
 */
import type { Db, Tx } from "../db";

type Client = Db | Tx;

/** The newest 100 messages, optionally only those to one address. */
export const listRecentMail = (db: Client, options: { to?: string } = {}) =>
  db.emailMessage.findMany({
    where: options.to !== undefined ? { to: options.to } : {},
    orderBy: { createdAt: "desc" },
    take: 100,
    select: {
      id: true,
      to: true,
      template: true,
      subject: true,
      status: true,
      transport: true,
      createdAt: true,
      sentAt: true,
    },
  });

/** One message in full; null when unknown. */
export const findMail = (db: Client, id: string) => db.emailMessage.findUnique({ where: { id } });

/** Sent mail to one address since an instant, optionally of one template only. */
export type MailboxFilter = { to: string; since: Date; template?: string };

const mailboxWhere = (filter: MailboxFilter) => ({
  status: "sent" as const,
  to: filter.to,
  createdAt: { gte: filter.since },
  ...(filter.template ? { template: filter.template } : {}),
});

/** The newest 100 messages of a mailbox, newest sent first. */
export const listMailbox = (db: Client, filter: MailboxFilter) =>
  db.emailMessage.findMany({
    where: mailboxWhere(filter),
    orderBy: { sentAt: "desc" },
    take: 100,
    select: { id: true, to: true, subject: true, text: true, sentAt: true, transport: true },
  });

/** The HTML of one message of a mailbox; null when it is not in it. */
export const findMailboxHtml = async (db: Client, filter: MailboxFilter, id: string) =>
  (
    await db.emailMessage.findFirst({
      where: { id, ...mailboxWhere(filter) },
      select: { html: true },
    })
  )?.html ?? null;
