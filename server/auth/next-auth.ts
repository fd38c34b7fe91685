/**
 * next-auth (v4) for shoppers: email and password (credentials provider), JWT sessions in an
 * HttpOnly, SameSite=Lax cookie (Secure when PUBLIC_URL is https). The session carries the person
 * id and when they signed in; session.ts checks both against the database on every use, so a
 * password reset ends older sessions.
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../platform/db";
import { findSignInPerson } from "./store/persons";
import { env } from "../platform/env";
import { sameOriginPath } from "./callback-url";
import { clientIp } from "../platform/http/client-ip";
import { admitSignIn, recordSignIn } from "./auth-limits";
import { AppError } from "../core/errors";
import { verifyAgainstDummy, verifyPassword } from "./passwords";

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string | null };
    authAt: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    authAt?: number;
  }
}

/**
 * Checks an email and password; the person (with their saved language, which the sign-in copies
 * into the `lang` cookie), or null (same time either way, so no enumeration).
 */
export const verifyCredentials = async (email: string, password: string) => {
  const person = await findSignInPerson(db(), email.trim().toLowerCase());
  const isValid = person
    ? await verifyPassword(password, person.passwordHash)
    : await verifyAgainstDummy(password);
  return isValid && person
    ? { id: person.id, email: person.email, name: person.name, language: person.language }
    : null;
};

/**
 * A sign-in attempt from `headers`' client: refused (TooManyAttempts) before any hashing while a
 * limit is spent; otherwise the credentials are checked and a failure is counted.
 */
export const signInWithPassword = async (email: string, password: string, headers: Headers) => {
  const ip = clientIp(headers);
  try {
    await admitSignIn(email, ip);
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited")
      throw new Error("TooManyAttempts");
    throw error;
  }
  const person = await verifyCredentials(email, password);
  await recordSignIn(email, ip, person !== null);
  return person;
};

const headersOf = (raw: Record<string, unknown> | undefined) =>
  new Headers(
    Object.entries(raw ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );

const sessionDays = 14;

/** The options, built on first use so PUBLIC_URL and APP_SECRET are read at run time, not at build. */
export const authOptions = (): NextAuthOptions => {
  // next-auth v4 takes its own origin from NEXTAUTH_URL; ours is PUBLIC_URL.
  process.env.NEXTAUTH_URL = env().PUBLIC_URL;
  return {
    secret: env().APP_SECRET,
    session: { strategy: "jwt", maxAge: sessionDays * 24 * 3600 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: async (credentials, request) => {
          const email = String(credentials?.email ?? "").slice(0, 254);
          const password = String(credentials?.password ?? "").slice(0, 200);
          if (!email || !password) return null;
          return signInWithPassword(email, password, headersOf(request?.headers));
        },
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, sub: user.id, authAt: Date.now() } : token),
      session: ({ session, token }) => ({
        ...session,
        user: { id: token.sub!, email: token.email ?? "", name: token.name ?? null },
        authAt: token.authAt ?? 0,
      }),
      // Only ever back to our own pages (callbackUrl comes from the query string).
      redirect: ({ url, baseUrl }) =>
        `${baseUrl}${sameOriginPath(url, { publicUrl: baseUrl, fallback: "/" })}`,
    },
  };
};
