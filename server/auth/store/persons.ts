/**
 * The two sign-in reads of `persons`, a table of accounts: auth sits below accounts (accounts uses
 * its password hashing and email links), so it cannot ask accounts for them. Prisma: once per
 * sign-in and once per page request of a signed-in shopper.
 */
import type { Db, Tx } from "../../platform/db";

/** The person signing in with this (normalised) email, with the hash to check the password against. */
export const findSignInPerson = (db: Db | Tx, email: string) =>
  db.person.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, language: true, passwordHash: true },
  });

/** When the person last changed their password (sessions signed in before it end); null when no such person. */
export const findPasswordChange = (db: Db | Tx, personId: string) =>
  db.person.findUnique({ where: { id: personId }, select: { passwordChangedAt: true } });
