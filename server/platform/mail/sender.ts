/**
 * Delivers outbox emails: claims due rows with a lease (FOR UPDATE SKIP LOCKED, so several
 * instances share the work), renders them with react-email, sends by SMTP when SMTP_URL is set and
 * into the sandbox mailbox otherwise (in the sandbox only), and retries failures with backoff.
 * Delivery is at least once: a crash after sending and before recording retries when the lease ends.
 * A row is marked sent only once its transport accepted it: for SMTP, once the server accepted the
 * message (server/platform/mail/delivery.ts says which rows count as delivered).
 */
import nodemailer from "nodemailer";
import { isTemplateName, renderEmail } from "../../../emails/render";
import type { Db } from "../db";
import { env, type Env } from "../env";
import { redactLinkTokens, redactLinkTokensIn } from "./redact-links";

const leaseMs = 2 * 60_000;
const maxAttempts = 8;
const fromAddress = () =>
  process.env.MAIL_FROM ?? `Shopping API <no-reply@${new URL(env().PUBLIC_URL).hostname}>`;

export type Transport = {
  name: string;
  send: (message: { to: string; subject: string; html: string; text: string }) => Promise<void>;
};

export const sandboxTransport: Transport = { name: "sandbox", send: async () => undefined };

/**
 * Nodemailer waits 2 minutes to connect, 30 s for the greeting and 10 minutes of silence by default:
 * a blackholed server would hold a delivery round that long. A few seconds each is plenty for a
 * relay; a failed send stays in the outbox and is retried with backoff. The URL's query string may
 * override them (`smtp://host?greetingTimeout=10000`).
 */
const smtpTimeouts = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
} as const;

export const smtpTransport = (url: string): Transport => {
  const transporter = nodemailer.createTransport({ url, ...smtpTimeouts });
  return {
    name: "smtp",
    send: async (message) => {
      await transporter.sendMail({ from: fromAddress(), ...message });
    },
  };
};

/**
 * Outside the sandbox without SMTP (production refuses to start so, server/platform/env.ts; this holds
 * whatever started it): every send fails, so no email is ever marked sent, each stays pending with
 * the reason, and a purchase whose copy email was never delivered is released, not charged.
 */
const noSmtpTransport: Transport = {
  name: "none",
  send: async () => {
    throw new Error(
      "no SMTP server (SMTP_URL): outside the sandbox an email is sent only through SMTP",
    );
  },
};

type MailConfig = Pick<Env, "SERVICE_ENV" | "SMTP_URL">;

let configured: Transport | undefined;
/** SMTP when SMTP_URL is set; else the sandbox mailbox in the sandbox, and nothing elsewhere. Given a configuration, made for it (not kept). */
export const configuredTransport = (config?: MailConfig): Transport => {
  const choose = ({ SERVICE_ENV, SMTP_URL }: MailConfig) =>
    SMTP_URL
      ? smtpTransport(SMTP_URL)
      : SERVICE_ENV === "sandbox"
        ? sandboxTransport
        : noSmtpTransport;
  return config ? choose(config) : (configured ??= choose(env()));
};

/**
 * Whether a sent email's stored copy loses its link tokens (server/platform/mail/redact-links.ts): outside
 * the sandbox, always. In the sandbox the stored copy is how a person reads their mail (the sandbox
 * mailbox, also when SMTP is configured), so its links stay usable there.
 */
export const redactsSentLinks = (config: Pick<Env, "SERVICE_ENV"> = env()) =>
  config.SERVICE_ENV !== "sandbox";

type Claimed = { id: string; to: string; template: string; props: unknown; attempts: number };

/** Backoff after the n-th failed attempt: 10 s, 40 s, 90 s, ... capped at 1 hour. */
export const retryDelayMs = (attempts: number) => Math.min(3_600_000, 10_000 * attempts * attempts);

/** Hands back claimed emails not sent (the sweep stopped): due again at once, for any instance, the claim not counted. */
const releaseEmails = (db: Db, options: { ids: string[]; now: Date }) => db.$executeRaw`
  UPDATE email_messages SET next_attempt_at = ${options.now}, attempts = attempts - 1
  WHERE id = ANY(${options.ids}::text[]) AND status = 'pending'
    AND next_attempt_at = ${new Date(options.now.getTime() + leaseMs)}`;

/** Emails claimed a run. */
const batchSize = 20;

/**
 * Sends a batch of due emails; returns how many were sent and how many failed, and `more` when the
 * batch was full: the sweep runs again at once rather than after its interval, so a burst (a sale's
 * notifications, tens of thousands) leaves at the rate the sender can render and send, not at one
 * batch a second (about 20 emails a second an instance: 54 minutes for the 64,000 of the watches
 * benchmark's sale).
 */
export const deliverDueEmails = async (options: {
  db: Db;
  now: Date;
  transport?: Transport;
  limit?: number;
  redactLinks?: boolean;
  /** Aborted when the sweep stops: the email being sent finishes, the rest of the batch is released. */
  signal?: AbortSignal;
}) => {
  const { db, now } = options;
  const redact = options.redactLinks ?? redactsSentLinks();
  const transport = options.transport ?? configuredTransport();
  const limit = options.limit ?? batchSize;
  const claimed = await db.$queryRaw<Claimed[]>`
    UPDATE email_messages SET next_attempt_at = ${new Date(now.getTime() + leaseMs)}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM email_messages WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, "to", template, props, attempts`;
  let sent = 0;
  let failed = 0;
  for (const [index, email] of claimed.entries()) {
    if (options.signal?.aborted) {
      await releaseEmails(db, { ids: claimed.slice(index).map((row) => row.id), now });
      break;
    }
    try {
      if (!isTemplateName(email.template)) throw new Error(`unknown template ${email.template}`);
      const rendered = await renderEmail(email.template, email.props);
      await transport.send({ to: email.to, ...rendered });
      await db.emailMessage.update({
        where: { id: email.id },
        // Delivered: the tokens were for the recipient, not for the stored copy (issue 24 L13).
        data: redact
          ? {
              status: "sent",
              sentAt: now,
              transport: transport.name,
              subject: rendered.subject,
              html: redactLinkTokens(rendered.html),
              text: redactLinkTokens(rendered.text),
              props: redactLinkTokensIn(email.props) as object,
              lastError: null,
            }
          : {
              status: "sent",
              sentAt: now,
              transport: transport.name,
              subject: rendered.subject,
              html: rendered.html,
              text: rendered.text,
              lastError: null,
            },
      });
      sent++;
    } catch (error) {
      const isFinal = email.attempts >= maxAttempts;
      await db.emailMessage.update({
        where: { id: email.id },
        data: {
          status: isFinal ? "failed" : "pending",
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(email.attempts)),
          lastError: String((error as Error).message ?? error).slice(0, 500),
        },
      });
      failed++;
    }
  }
  return { sent, failed, more: claimed.length === limit && !options.signal?.aborted };
};
