/**
 * Limits on the doors that need no token: /oauth/authorize (and the metadata documents it fetches),
 * /oauth/token, /oauth/revoke, /oauth/register/agent,
 * sign-in, sign-up, the emails a visitor can trigger (forgot password) and the pages that use an
 * emailed link's token (confirm the email, set a new password). Per client address
 * (server/platform/http/client-ip.ts), and at the token endpoint per authenticated client too.
 *
 * Failed authentication (a wrong client secret, a wrong password) is counted per address, and
 * for passwords per (email, address) plus a looser count per email alone: someone guessing one
 * person's password from one place is stopped there without locking that person out from
 * everywhere, and spraying many addresses at one account is slowed. Sign-in checks every count
 * before the password hash (a 32 MiB scrypt) is computed. Same machinery and fall-back as the
 * partner limits (server/platform/rate-limit.ts); AUTH_RATE_LIMITS=off (load tests) turns them off.
 */
import { env } from "../platform/env";
import { AppError } from "../core/errors";
import {
  consumeRateLimit,
  defineLimit,
  type Limiter,
  type Policy,
  rateLimitHeaders,
} from "../platform/rate-limit";
import { count } from "../platform/observability/metrics";

const minute = (points: number): Policy => ({ name: "minute", points, duration: 60 });
const hour = (points: number): Policy => ({ name: "hour", points, duration: 3600 });
const quarterHour = (points: number): Policy => ({ name: "15min", points, duration: 900 });

export const authLimits = {
  tokenPerIp: defineLimit("oauth-token-ip", [minute(300)]),
  tokenPerClient: defineLimit("oauth-token-client", [minute(120), hour(1000)]),
  revokePerIp: defineLimit("oauth-revoke-ip", [minute(120)]),
  registerPerIp: defineLimit("oauth-register-ip", [minute(10), hour(50)]),
  /** GET /oauth/authorize: a person's browser never needs this many; an address probing it does. */
  authorizePerIp: defineLimit("oauth-authorize-ip", [minute(120)]),
  /** Client ID metadata documents actually fetched for one address (cached ones are free). */
  metadataFetchesPerIp: defineLimit("oauth-metadata-fetch-ip", [minute(10), hour(60)]),
  signUpPerIp: defineLimit("sign-up-ip", [hour(20)]),
  emailLinksPerIp: defineLimit("email-links-ip", [hour(20)]),
  signInPerIp: defineLimit("sign-in-ip", [minute(30)]),
  linkUsesPerIp: defineLimit("link-uses-ip", [minute(30)]),
  failuresPerIp: defineLimit("auth-failures-ip", [quarterHour(50)]),
  failuresPerEmailIp: defineLimit("sign-in-failures-email-ip", [quarterHour(10)]),
  failuresPerEmail: defineLimit("sign-in-failures-email", [hour(100)]),
};

type Limit = () => Limiter[];
const isOn = () => env().AUTH_RATE_LIMITS === "on";

/** Counts one request for `key`; throws 429 rate_limited when a window is spent. */
export const admit = async (limit: Limit, key: string) => {
  if (isOn()) await consumeRateLimit(key, limit());
};

/** Throws 429 rate_limited when `key` already spent a window, without counting this request. */
export const refuseIfSpent = async (limit: Limit, key: string) => {
  if (!isOn()) return;
  for (const { policy, limiter, name } of limit()) {
    const spent = await limiter.peek(key);
    if (spent && spent.consumedPoints >= policy.points) {
      count("shopping_rate_limit_refusals_total", { limit: name });
      const retryAfter = Math.max(1, Math.ceil(spent.msBeforeNext / 1000));
      throw new AppError("rate_limited", {
        message: `Too many failed attempts; retry after ${retryAfter} seconds.`,
        retryAfter,
        details: { violated_policies: [policy.name] },
        // As every 429 does (RELIABILITY rule 10): the policy, and the window spent until its reset.
        headers: rateLimitHeaders([{ policy, remaining: 0, resetSeconds: retryAfter }]),
      });
    }
  }
};

/** Counts a failure for `key` (a spent window is no error here: the next attempt is refused). */
export const recordFailure = async (limit: Limit, key: string) => {
  if (!isOn()) return;
  // Not consumeRateLimit: spending a window here refuses nothing, so it must not count as a refusal
  // (the next attempt is refused, and counted, by refuseIfSpent).
  for (const { limiter } of limit()) {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      return;
    }
  }
};

/** Forgets `key`'s failures (a successful sign-in from that place). */
const clearFailures = async (limit: Limit, key: string) => {
  if (!isOn()) return;
  await Promise.all(limit().map(({ limiter }) => limiter.reset(key)));
};

const signInKeys = (email: string, ip: string) => {
  const normalised = email.trim().toLowerCase();
  return { email: normalised, emailAtIp: `${normalised}|${ip}` };
};

/** Before a password is checked: counts the attempt per address and refuses while any failure count is spent. */
export const admitSignIn = async (email: string, ip: string) => {
  const keys = signInKeys(email, ip);
  await admit(authLimits.signInPerIp, ip);
  await refuseIfSpent(authLimits.failuresPerIp, ip);
  await refuseIfSpent(authLimits.failuresPerEmailIp, keys.emailAtIp);
  await refuseIfSpent(authLimits.failuresPerEmail, keys.email);
};

/** After the password was checked: a failure counts three ways; a success clears that place's count for the email. */
export const recordSignIn = async (email: string, ip: string, isValid: boolean) => {
  const keys = signInKeys(email, ip);
  if (isValid) return clearFailures(authLimits.failuresPerEmailIp, keys.emailAtIp);
  await recordFailure(authLimits.failuresPerIp, ip);
  await recordFailure(authLimits.failuresPerEmailIp, keys.emailAtIp);
  await recordFailure(authLimits.failuresPerEmail, keys.email);
};

/**
 * Runs the use of an emailed link's token (confirm the email, set a new password) under the limits
 * sign-in has: counted per address, refused while the address's failed authentications are spent,
 * and a token that does not work (invalid_link) counts as one, so guessing tokens is slowed as
 * guessing passwords is.
 */
export const limitLinkUse = async <T>(ip: string, use: () => Promise<T>): Promise<T> => {
  await admit(authLimits.linkUsesPerIp, ip);
  await refuseIfSpent(authLimits.failuresPerIp, ip);
  try {
    return await use();
  } catch (error) {
    // A procedure called through tRPC throws its AppError wrapped (TRPCError's cause).
    const failure =
      error instanceof AppError ? error : (error as { cause?: unknown } | null)?.cause;
    if (failure instanceof AppError && failure.code === "invalid_link")
      await recordFailure(authLimits.failuresPerIp, ip);
    throw error;
  }
};
