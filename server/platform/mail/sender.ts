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
  /** How many sends may be in flight at once: the SMTP pool's connections; one when not given. */
  parallel?: number;
  send: (message: { to: string; subject: string; html: string; text: string }) => Promise<void>;
  /** Ends the transport's connections (the sweep's stop). */
  close?: () => void;
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

/**
 * A pool of connections, each kept for many messages, several sending at once (docs/adr/0130).
 * Without it each email opened a connection of its own (TCP, greeting, EHLO, STARTTLS, AUTH) and the
 * batch went one email at a time: 4.9 emails a second through a relay 20 ms away, so a sale's
 * 64,000 notifications took hours; pooled, 62 a second (bench: mail). An idle connection is closed
 * after 10 s (nodemailer's 4 minutes would keep a relay's session open between bursts for nothing).
 * The URL's query may override each (`?maxConnections=10`, `?rateLimit=50` for a relay's per-second
 * cap, `?pool=false` for a connection an email).
 */
const smtpPool = { pool: true, maxConnections: 5, maxMessages: 100, idleTimeout: 10_000 } as const;

export const smtpTransport = (url: string): Transport => {
  const transporter = nodemailer.createTransport({ url, ...smtpTimeouts, ...smtpPool });
  // The options as nodemailer merged them (the URL's query wins), so `?pool=false` sends one at a time.
  const merged = (transporter.transporter as unknown as { options: typeof smtpPool }).options;
  return {
    name: "smtp",
    // A whole number of at least 1 (server/platform/env.ts checks SMTP_URL's query).
    parallel: merged.pool === true ? Number(merged.maxConnections) : 1,
    send: async (message) => {
      await transporter.sendMail({ from: fromAddress(), ...message });
    },
    close: () => transporter.close(),
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

/** Closes the configured transport's connections, if it was made (the sweep thread's stop). */
export const closeConfiguredTransport = () => {
  configured?.close?.();
  configured = undefined;
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

/**
 * Leases up to `limit` due emails of one kind (bulk or not), oldest due first. Each kind is a range
 * of the (status, bulk, next_attempt_at) index, so an outbox full of emails backing off (SMTP down)
 * costs the claim nothing.
 */
const claimDue = (db: Db, options: { now: Date; limit: number; bulk: boolean }) =>
  db.$queryRaw<Claimed[]>`
    UPDATE email_messages SET next_attempt_at = ${new Date(options.now.getTime() + leaseMs)}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM email_messages
      WHERE status = 'pending' AND bulk = ${options.bulk} AND next_attempt_at <= ${options.now}
      ORDER BY next_attempt_at LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, "to", template, props, attempts`;

/** The due emails that are not bulk first, then bulk ones to fill the batch (outbox.ts says which are). */
const claimDueEmails = async (db: Db, options: { now: Date; limit: number }) => {
  const first = await claimDue(db, { ...options, bulk: false });
  if (first.length === options.limit) return first;
  const bulk = await claimDue(db, { ...options, limit: options.limit - first.length, bulk: true });
  return [...first, ...bulk];
};

type Sent = { id: string; subject: string; html: string; text: string; props: unknown };

/**
 * Marks a batch's delivered emails sent in one statement, with what was sent. Outside the sandbox
 * the stored copy loses its link tokens: they were for the recipient (issue 24 L13).
 */
const recordSent = (
  db: Db,
  options: { sent: Sent[]; now: Date; transport: string; redact: boolean },
) => {
  const { sent, redact } = options;
  const stored = (text: string) => (redact ? redactLinkTokens(text) : text);
  return db.$executeRaw`
    UPDATE email_messages m SET status = 'sent', sent_at = ${options.now},
      transport = ${options.transport}, subject = s.subject, html = s.html, text = s.text,
      props = COALESCE(s.props, m.props), last_error = NULL
    FROM unnest(${sent.map((email) => email.id)}::text[], ${sent.map((email) => email.subject)}::text[],
      ${sent.map((email) => stored(email.html))}::text[], ${sent.map((email) => stored(email.text))}::text[],
      ${sent.map((email) => (redact ? JSON.stringify(redactLinkTokensIn(email.props)) : null))}::jsonb[])
      AS s(id, subject, html, text, props)
    WHERE m.id = s.id`;
};

/** Emails claimed a run. */
const batchSize = 20;

/**
 * Sends a batch of due emails; returns how many were sent and how many failed, and `more` when the
 * batch was full: the sweep runs again at once rather than after its interval, so a burst (a sale's
 * notifications, tens of thousands) leaves at the rate the sender can render and send, not at one
 * batch a second (about 20 emails a second an instance: 54 minutes for the 64,000 of the watches
 * benchmark's sale). Up to the transport's `parallel` emails are rendered and sent at once (the
 * SMTP pool's connections), and the batch's deliveries are recorded together in one statement: if
 * the process dies before that statement, the emails it sent go again when their lease ends
 * (delivery is at least once, as before, now for at most a batch).
 */
export const deliverDueEmails = async (options: {
  db: Db;
  now: Date;
  transport?: Transport;
  limit?: number;
  redactLinks?: boolean;
  /** Aborted when the sweep stops: the emails being sent finish, the rest of the batch is released. */
  signal?: AbortSignal;
}) => {
  const { db, now } = options;
  const transport = options.transport ?? configuredTransport();
  const limit = options.limit ?? batchSize;
  const claimed = await claimDueEmails(db, { now, limit });
  const sent: Sent[] = [];
  const failures: { email: Claimed; error: unknown }[] = [];
  let next = 0;
  const sendInTurn = async () => {
    while (next < claimed.length && !options.signal?.aborted) {
      const email = claimed[next++];
      try {
        if (!isTemplateName(email.template)) throw new Error(`unknown template ${email.template}`);
        const rendered = await renderEmail(email.template, email.props);
        await transport.send({ to: email.to, ...rendered });
        sent.push({ id: email.id, props: email.props, ...rendered });
      } catch (error) {
        failures.push({ email, error });
      }
    }
  };
  const senders = Math.min(Math.max(1, transport.parallel ?? 1), claimed.length);
  await Promise.all(Array.from({ length: senders }, sendInTurn));
  if (next < claimed.length)
    await releaseEmails(db, { ids: claimed.slice(next).map((row) => row.id), now });
  if (sent.length > 0)
    await recordSent(db, {
      sent,
      now,
      transport: transport.name,
      redact: options.redactLinks ?? redactsSentLinks(),
    });
  for (const { email, error } of failures) {
    const isFinal = email.attempts >= maxAttempts;
    await db.emailMessage.update({
      where: { id: email.id },
      data: {
        status: isFinal ? "failed" : "pending",
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(email.attempts)),
        lastError: String((error as Error).message ?? error).slice(0, 500),
      },
    });
  }
  return {
    sent: sent.length,
    failed: failures.length,
    more: claimed.length === limit && !options.signal?.aborted,
  };
};
