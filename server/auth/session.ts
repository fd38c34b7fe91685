/**
 * The signed-in shopper of the current page request. The session cookie is checked against the
 * database each time: the person must still exist, and a password change after the sign-in ends
 * the session.
 */
import { getServerSession } from "next-auth";
import { db } from "../db";
import { authOptions } from "./next-auth";

/** True when a session signed in at `authAt` is still valid for a person whose password changed at `passwordChangedAt`. */
export const isSessionCurrent = (authAt: number, passwordChangedAt: Date | null) => !passwordChangedAt || passwordChangedAt.getTime() <= authAt;

/** The id of the signed-in person, or undefined. Only for pages, server actions and route handlers. */
export const currentPersonId = async (): Promise<string | undefined> => {
  const session = await getServerSession(authOptions());
  const personId = session?.user?.id;
  if (!personId) return undefined;
  const person = await db().person.findUnique({ where: { id: personId }, select: { passwordChangedAt: true } });
  return person && isSessionCurrent(session.authAt, person.passwordChangedAt) ? personId : undefined;
};
