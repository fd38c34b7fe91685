/**
 * Operator commands of the outbox: `mail:list [--to EMAIL]` (newest first, at most 100) and
 * `mail:show ID` (subject, text and HTML). The operator may read any message; the sandbox mailbox
 * page shows a person only their own.
 */
import { db } from "../../platform/db";
import { findMail, listRecentMail } from "../../platform/mail/mailbox";

/** The newest messages, optionally only those to one address. */
export const listMail = async (to: string | undefined) => {
  const messages = await listRecentMail(db(), to ? { to: to.trim().toLowerCase() } : {});
  return {
    messages: messages.map((m) => ({
      id: m.id,
      to: m.to,
      template: m.template,
      subject: m.subject,
      status: m.status,
      transport: m.transport,
      created_at: m.createdAt.toISOString(),
      sent_at: m.sentAt?.toISOString() ?? null,
    })),
  };
};

/** One message in full; fails when there is none with this id. */
export const showMail = async (id: string | undefined) => {
  const message = id ? await findMail(db(), id) : null;
  if (!message) throw new Error(`no email ${id ?? "(give an id)"}`);
  return {
    id: message.id,
    to: message.to,
    template: message.template,
    subject: message.subject,
    status: message.status,
    sent_at: message.sentAt?.toISOString() ?? null,
    text: message.text,
    html: message.html,
  };
};
