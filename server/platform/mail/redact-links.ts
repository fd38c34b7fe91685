/**
 * Issue 24 L13: an email's links carry signed tokens (purchase and watch cancel links, email
 * confirmation, password reset). The sender needs them until the message is delivered; after that
 * the stored row (kept 30 days for the operator's `mail:show` and the sandbox mailbox) must not be a
 * second, readable copy of a live token. Once an email is sent outside the sandbox, its stored
 * props, html and text keep every link but with the token replaced by `redacted`: the operator
 * still sees which link was sent, and nobody can use it. Imports nothing.
 */

/** What a redacted token reads as, in `?token=redacted`. */
const redactedToken = "redacted";

// A token query parameter (also inside HTML, where & is written &amp;), and any signed link token
// (server/platform/mail/links.ts: base64url payload, a dot, a 43-character HMAC-SHA256) wherever it appears.
const tokenParameter = /([?&](?:amp;)?token=)[^&"'\s<>)\]]+/g;
const signedToken = /[A-Za-z0-9_-]{16,}(?:\.|%2E)[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/gi;

/** `text` with every link token replaced by the placeholder. */
export const redactLinkTokens = (text: string) =>
  text.replace(tokenParameter, `$1${redactedToken}`).replace(signedToken, redactedToken);

/** A JSON value (an email's props) with every string redacted. */
export const redactLinkTokensIn = (value: unknown): unknown => {
  if (typeof value === "string") return redactLinkTokens(value);
  if (Array.isArray(value)) return value.map(redactLinkTokensIn);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, redactLinkTokensIn(inner)]),
    );
  return value;
};
