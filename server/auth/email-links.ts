/**
 * The emailed links of shopper accounts: confirm an email address (24 hours) and reset a password
 * (1 hour). Each is a signed, single-purpose token (server/platform/mail/links.ts) whose subject binds what
 * it acts on, which makes it single use: a confirm link names the address it confirms (changing
 * the address kills it), a reset link names a fingerprint of the current password hash (the reset
 * changes the hash, so the link dies with it). Opening a link changes nothing; pages POST.
 */
import { defaultLocale, type Locale, localeOfLanguage } from "../core/locale";
import { env } from "../platform/env";
import { createLinkToken, verifyLinkToken } from "../platform/mail/links";
import { enqueueEmail } from "../platform/mail/outbox";
import { sha256 } from "../core/ids";

type Writer = Parameters<typeof enqueueEmail>[0];
/** `language`: the person's saved one ("en" | "fr"), null or absent when they saved none. */
type Person = { id: string; email: string; name: string | null; language?: string | null };

/**
 * The language of an account email: the person's saved one, else the language of the page where
 * they asked for it (sign-up, forgot password, a new confirmation link), else English.
 */
const accountEmailLocale = (person: Person, pageLocale?: Locale): Locale =>
  person.language === "en" || person.language === "fr"
    ? localeOfLanguage(person.language)
    : (pageLocale ?? defaultLocale);

const hour = 3_600_000;
/** Emails of one kind to one person at most once per this window (a cheap guard against mail bombing). */
const throttleWindowMs = 2 * 60_000;
const windowOf = (now: Date) => Math.floor(now.getTime() / throttleWindowMs);

const passwordFingerprint = (passwordHash: string | null) =>
  sha256(passwordHash ?? "none").slice(0, 16);

/** Writes the "confirm your email" email for the person's current address into the outbox. */
export const enqueueVerificationEmail = async (
  tx: Writer,
  person: Person,
  now: Date,
  pageLocale?: Locale,
) => {
  const token = createLinkToken({
    purpose: "verify-email",
    subject: `${person.id}:${person.email}`,
    expiresAt: new Date(now.getTime() + 24 * hour),
  });
  await enqueueEmail(tx, {
    to: person.email,
    template: "verify-email",
    props: {
      name: person.name,
      confirmUrl: `${env().PUBLIC_URL}/verify-email?token=${encodeURIComponent(token)}`,
      locale: accountEmailLocale(person, pageLocale),
    },
    dedupeKey: `verify-email:${person.id}:${person.email}:${windowOf(now)}`,
  });
};

/** The person id and address a confirm link is for, or undefined when forged or expired. */
export const readVerificationToken = (token: string, now: Date) => {
  const subject = verifyLinkToken(token, "verify-email", now);
  if (!subject) return undefined;
  const colon = subject.indexOf(":");
  return { personId: subject.slice(0, colon), email: subject.slice(colon + 1) };
};

/** Writes the password reset email into the outbox. */
export const enqueuePasswordResetEmail = async (
  tx: Writer,
  person: Person & { passwordHash: string | null },
  now: Date,
  pageLocale?: Locale,
) => {
  const token = createLinkToken({
    purpose: "reset-password",
    subject: `${person.id}:${passwordFingerprint(person.passwordHash)}`,
    expiresAt: new Date(now.getTime() + hour),
  });
  await enqueueEmail(tx, {
    to: person.email,
    template: "reset-password",
    props: {
      name: person.name,
      resetUrl: `${env().PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`,
      locale: accountEmailLocale(person, pageLocale),
    },
    dedupeKey: `reset-password:${person.id}:${windowOf(now)}`,
  });
};

/** The person a reset link is for and the password it may replace, or undefined when forged or expired. */
export const readPasswordResetToken = (token: string, now: Date) => {
  const subject = verifyLinkToken(token, "reset-password", now);
  if (!subject) return undefined;
  const [personId, fingerprint] = subject.split(":");
  return { personId, fingerprint };
};

/** True while the password the link was issued for is still the current one (the link is unused). */
export const isResetLinkFresh = (fingerprint: string, currentHash: string | null) =>
  passwordFingerprint(currentHash) === fingerprint;

/** Someone tried to sign up with an address that has an account: tell its owner, never the visitor. */
export const enqueueAccountExistsEmail = async (
  tx: Writer,
  person: Person,
  now: Date,
  pageLocale?: Locale,
) => {
  await enqueueEmail(tx, {
    to: person.email,
    template: "account-exists",
    props: {
      name: person.name,
      signInUrl: `${env().PUBLIC_URL}/sign-in`,
      resetUrl: `${env().PUBLIC_URL}/forgot-password`,
      locale: accountEmailLocale(person, pageLocale),
    },
    dedupeKey: `account-exists:${person.id}:${windowOf(now)}`,
  });
};
