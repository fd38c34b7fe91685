/**
 * Guessing passwords is slowed per email address: 10 attempts per 15 minutes, counted
 * in Redis when REDIS_URL is set (memory otherwise), through the same limiter the API uses.
 */
import { createLimiters, consumeRateLimit, type Limiter } from "../http/rate-limit";
import { env } from "../env";
import { AppError } from "../errors";

let limiters: Limiter[] | undefined;
const signInLimiters = () =>
  (limiters ??= createLimiters({
    redisUrl: env().REDIS_URL,
    prefix: `${process.env.RATE_LIMIT_PREFIX ?? "rl"}:sign-in`,
    policies: [{ name: "minute", points: 10, duration: 15 * 60 }],
  }));

/** True while the address may try again; false once it spent its attempts for the window. */
export const checkSignInAttempt = async (email: string) => {
  try {
    await consumeRateLimit(email.trim().toLowerCase(), signInLimiters());
    return true;
  } catch (error) {
    // Only a spent window refuses; a limiter failure lets the attempt through (fail open, like the API).
    if (error instanceof AppError && error.code === "rate_limited") return false;
    return true;
  }
};
