/**
 * Responses of the /oauth/* endpoints in the shape of RFC 6749 section 5: JSON, never cached,
 * errors as {"error", "error_description"}.
 */
export type OAuthErrorCode =
  | "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope"
  | "invalid_target" | "unsupported_token_type" | "temporarily_unavailable" | "server_error"
  | "invalid_redirect_uri" | "invalid_client_metadata" | "invalid_token";

export const noStore = { "Cache-Control": "no-store", Pragma: "no-cache", "Content-Type": "application/json; charset=utf-8" };

export const oauthJson = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...noStore, ...headers } });

export const oauthError = (error: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) =>
  oauthJson({ error, error_description: description }, status, headers);

/** The answer when the database cannot be reached: 503 and Retry-After, never invalid_grant (clients would drop valid credentials). */
export const oauthUnavailable = () => oauthError("temporarily_unavailable", "Retry shortly.", 503, { "Retry-After": "5" });

/** Reads an application/x-www-form-urlencoded body, refusing other types and repeated parameters (RFC 6749 3.1, 3.2). */
export const readForm = async (request: Request): Promise<URLSearchParams | Response> => {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return oauthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(await request.text());
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError("invalid_request", `Parameter ${name} is repeated.`);
  }
  return form;
};
