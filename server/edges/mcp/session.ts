/**
 * Sessions of the stateless connectors. The server keeps nothing: at initialize it hands out a
 * signed session id (HMAC with APP_SECRET, 24 hours), and later requests prove it by the
 * signature alone, on any instance. The session is what the public connector counts its rate
 * limit by, owns the quotes and checkouts made in it, and derives create_checkout's idempotency
 * key from.
 */
import { randomBytes } from "node:crypto";
import { createLinkToken, verifyLinkToken } from "../../platform/mail/links";

const purpose = "mcp-session";
const lifetimeMs = 24 * 60 * 60_000;

/** A new session id (visible ASCII, as MCP requires). */
export const newSessionId = (now: Date) =>
  createLinkToken({
    purpose,
    subject: randomBytes(12).toString("base64url"),
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });

/** The session's own key, or undefined for a forged, foreign or expired id. */
export const sessionKey = (sessionId: string, now: Date) =>
  verifyLinkToken(sessionId, purpose, now);
