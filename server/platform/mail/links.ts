/**
 * Signed, single-purpose, expiring tokens for links in emails (HMAC-SHA256 with APP_SECRET).
 * A token only proves who it was issued for and for what; single use is enforced by the action it
 * performs (a state change that happens once). Opening a link never changes state by itself.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "../env";

type Payload = { purpose: string; subject: string; exp: number };

const sign = (body: string) =>
  createHmac("sha256", env().APP_SECRET).update(body).digest("base64url");

export const createLinkToken = (options: { purpose: string; subject: string; expiresAt: Date }) => {
  const body = Buffer.from(
    JSON.stringify({
      purpose: options.purpose,
      subject: options.subject,
      exp: Math.floor(options.expiresAt.getTime() / 1000),
    } satisfies Payload),
  ).toString("base64url");
  return `${body}.${sign(body)}`;
};

/** The subject the token was issued for, or undefined when forged, for another purpose or expired. */
export const verifyLinkToken = (token: string, purpose: string, now: Date): string | undefined => {
  const [body, signature] = token.split(".");
  if (!body || !signature) return undefined;
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
    if (payload.purpose !== purpose || payload.exp * 1000 <= now.getTime()) return undefined;
    return payload.subject;
  } catch {
    return undefined;
  }
};
