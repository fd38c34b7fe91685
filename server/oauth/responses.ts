/**
 * Responses of the /oauth/* endpoints in the shape of RFC 6749 section 5: JSON, never cached,
 * errors as {"error", "error_description"}.
 */
import { AppError } from "../core/errors";
import { BodyTooLargeError, maxFormBytes, readCappedText } from "../platform/http/read-body";
import { findUnstorableInput } from "../core/storable-text";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "unsupported_token_type"
  | "temporarily_unavailable"
  | "server_error"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "invalid_token";

const noStore = {
  "Cache-Control": "no-store",
  Pragma: "no-cache",
  "Content-Type": "application/json; charset=utf-8",
};

export const oauthJson = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...noStore, ...headers } });

export const oauthError = (
  error: OAuthErrorCode,
  description: string,
  status = 400,
  headers: Record<string, string> = {},
) => oauthJson({ error, error_description: description }, status, headers);

/** The answer when the database cannot be reached: 503 and Retry-After, never invalid_grant (clients would drop valid credentials). */
export const oauthUnavailable = () =>
  oauthError("temporarily_unavailable", "Retry shortly.", 503, { "Retry-After": "5" });

/**
 * Runs a rate-limit check at an OAuth endpoint: undefined when admitted, else the 429 answer in
 * RFC 6749's shape. RFC 6749 defines no code for it; `temporarily_unavailable` is its registered
 * "try again later" code, and 429 with Retry-After (and RateLimit headers) tells it from an outage (503).
 */
export const oauthLimited = async (
  check: () => Promise<unknown>,
): Promise<Response | undefined> => {
  try {
    await check();
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "rate_limited") throw error;
    return oauthError("temporarily_unavailable", error.message, 429, {
      "Retry-After": String(error.options.retryAfter ?? 60),
      ...error.options.headers,
    });
  }
};

/** The 413 of an OAuth endpoint: RFC 6749's error shape with the HTTP status that says why. */
const oauthBodyTooLarge = (limit: number, code: OAuthErrorCode) =>
  oauthError(code, `The body must be at most ${limit} bytes.`, 413);

/** A body of at most `limit` bytes as text, or the OAuth 413 answer (with `code`: registration says invalid_client_metadata). */
export const readOAuthBody = async (
  request: Request,
  limit: number,
  code: OAuthErrorCode = "invalid_request",
): Promise<string | Response> => {
  try {
    return await readCappedText(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return oauthBodyTooLarge(limit, code);
    throw error;
  }
};

/**
 * Reads an application/x-www-form-urlencoded body of at most 16 KiB (413 beyond), refusing other
 * types and repeated parameters (RFC 6749 3.1, 3.2).
 */
export const readForm = async (request: Request): Promise<URLSearchParams | Response> => {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    await request.body?.cancel().catch(() => undefined);
    return oauthError(
      "invalid_request",
      "Send the parameters as application/x-www-form-urlencoded.",
    );
  }
  const text = await readOAuthBody(request, maxFormBytes);
  if (text instanceof Response) return text;
  const form = new URLSearchParams(text);
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1)
      return oauthError("invalid_request", `Parameter ${name} is repeated.`);
  }
  // A NUL in a client_id reached PostgreSQL, which refuses it: a 500 (found by a newcomer's check).
  const unstorable = findUnstorableInput(Object.fromEntries(form));
  if (unstorable)
    return oauthError("invalid_request", `Parameter ${unstorable.field} ${unstorable.reason}.`);
  return form;
};
