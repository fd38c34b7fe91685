/**
 * Limits that keep the hosted page from being a card-testing tool (review M5):
 * - per checkout, in PostgreSQL under the checkout's lock (a money rule never depends on Redis):
 *   after `maxDeclinesPerCheckout` declined payments the checkout takes no more attempts
 *   (`checkout_closed`, asking for a new link); bank timeouts do not count;
 * - per client address (the page's caller passes it, server/platform/http/client-ip.ts), with the rate
 *   limiter (Redis, memory when Redis is slow or away): 30 pay attempts and 10 declines per 15
 *   minutes, counted and refused as sign-in's failures are (server/auth/auth-limits.ts), and off
 *   with AUTH_RATE_LIMITS=off like the other doors that need no token. A caller without an
 *   address (a job, a test of another rule) is not counted per address.
 */
import { admit, recordFailure, refuseIfSpent } from "../../auth";
import type { Tx } from "../../platform/db";
import { countDeclines } from "../store/borrowed";
import { AppError } from "../../core/errors";
import { defineLimit } from "../../platform/rate-limit";

const maxDeclinesPerCheckout = 5;

const quarterHour = (points: number) => ({ name: "15min", points, duration: 900 });
const payLimits = {
  attemptsPerAddress: defineLimit("pay-attempts-ip", [quarterHour(30)]),
  declinesPerAddress: defineLimit("pay-declines-ip", [quarterHour(10)]),
};

/** Before a pay attempt: counts it for the address and refuses while the address's declines are spent. */
export const admitPayAttempt = async (address: string | undefined) => {
  if (!address) return;
  await admit(payLimits.attemptsPerAddress, address);
  await refuseIfSpent(payLimits.declinesPerAddress, address);
};

/** After a decline (the bank's, or a failed authentication): one more for the address. */
export const recordPayDecline = async (address: string | undefined) => {
  if (address) await recordFailure(payLimits.declinesPerAddress, address);
};

/** Under the checkout's lock: refuses a new attempt once the checkout has had its declines. */
export const refuseAfterDeclines = async (tx: Tx, checkoutId: string) => {
  const declines = await countDeclines(tx, checkoutId);
  if (declines < maxDeclinesPerCheckout) return;
  throw new AppError("checkout_closed", {
    message: `This checkout has had too many declined payments (${maxDeclinesPerCheckout}) and takes no more. Ask the app that sent you here for a new checkout link.`,
    details: { reason: "too_many_declines" },
  });
};
