/**
 * The signed-in shopper of the current page request. The session cookie is checked against the
 * database each time: the person must still exist, and a password change after the sign-in ends
 * the session.
 */
import { getServerSession } from "next-auth";
import { getToken } from "next-auth/jwt";
import { db } from "../platform/db";
import { findPasswordChange } from "./store/persons";
import { env } from "../platform/env";
import { authOptions } from "./next-auth";

/** True when a session signed in at `authAt` is still valid for a person whose password changed at `passwordChangedAt`. */
export const isSessionCurrent = (authAt: number, passwordChangedAt: Date | null) =>
  !passwordChangedAt || passwordChangedAt.getTime() <= authAt;

/** The id of the signed-in person, or undefined. Only for pages, server actions and route handlers. */
export const currentPersonId = async (): Promise<string | undefined> => {
  const session = await getServerSession(authOptions());
  return session?.user?.id ? checkedPersonId(session.user.id, session.authAt) : undefined;
};

/** The person, if they still exist and the session began after their last password change. */
const checkedPersonId = async (personId: string, authAt: number) => {
  const person = await findPasswordChange(db(), personId);
  return person && isSessionCurrent(authAt, person.passwordChangedAt) ? personId : undefined;
};

/** name=value pairs of a Cookie header (a value that is not valid percent-encoding is skipped). */
const parseCookies = (header: string | null) => {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 1) continue;
    try {
      cookies[part.slice(0, at).trim()] ??= decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      // not ours to repair
    }
  }
  return cookies;
};

/**
 * The signed-in person of a route handler's Request, read from the session cookie only (never from
 * an Authorization header, which next-auth's getToken would also accept), with the same checks as
 * `currentPersonId`. Works without Next's request scope, so tests can call the handler directly.
 */
export const personIdFromRequest = async (request: Request): Promise<string | undefined> => {
  const secureCookie = env().PUBLIC_URL.startsWith("https://");
  const token = await getToken({
    req: { cookies: parseCookies(request.headers.get("cookie")), headers: {} } as never,
    secret: env().APP_SECRET,
    secureCookie,
  });
  return token?.sub ? checkedPersonId(token.sub, token.authAt ?? 0) : undefined;
};
