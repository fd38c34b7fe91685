/**
 * When an email counts as delivered (review M1; DESIGN.md: nobody is charged without having been
 * sent the cancel link): when an SMTP server accepted it. The sandbox mailbox stands in for
 * delivery only in the sandbox without SMTP, where every written email counts; a row the sandbox
 * transport marked sent is never a delivery anywhere else.
 */
import type { Db } from "../db";
import { env, type Env } from "../env";
import { sandboxTransport } from "./sender";

/** True only when SERVICE_ENV is sandbox and no SMTP server is configured. */
export const sandboxMailboxCounts = (config: Pick<Env, "SERVICE_ENV" | "SMTP_URL"> = env()) =>
  config.SERVICE_ENV === "sandbox" && !config.SMTP_URL;

/** The email with this dedupe key was delivered: accepted by a transport other than the sandbox mailbox, or (sandboxMailbox) written. */
export const isEmailDelivered = async (db: Db, dedupeKey: string, sandboxMailbox: boolean) => {
  const email = await db.emailMessage.findUnique({
    where: { dedupeKey },
    select: { status: true, transport: true },
  });
  if (!email) return false;
  return sandboxMailbox || (email.status === "sent" && email.transport !== sandboxTransport.name);
};
