/**
 * POST /oauth/token. Answers in the shape of RFC 6749 section 5 (success) and 5.2 (errors), always
 * with Cache-Control: no-store. Client authentication: client_secret_basic or client_secret_post,
 * never both. Grants are dispatched by grant_type; this file holds client_credentials.
 */
import { db, isDatabaseUnavailable } from "../db";
import { systemClock } from "../clock";
import { accessTokenLifetimeSeconds, issueAccessToken, secretMatches } from "./tokens";
import { clientCredentialsScopes, parseScopeString } from "./scopes";

type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "temporarily_unavailable";

const noStore = { "Cache-Control": "no-store", Pragma: "no-cache", "Content-Type": "application/json; charset=utf-8" };

const oauthError = (error: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error, error_description: description }), { status, headers: { ...noStore, ...headers } });

type ClientAuth = { clientId: string; secret: string | undefined; method: "basic" | "post" | "none" };

/** Reads client credentials from HTTP Basic or the form; refuses both at once (RFC 6749 2.3). */
const readClientAuth = (request: Request, form: URLSearchParams): ClientAuth | Response => {
  const header = request.headers.get("authorization");
  const basic = header && /^Basic\s+(.+)$/i.exec(header);
  if (basic) {
    if (form.has("client_secret")) return oauthError("invalid_request", "Use one client authentication method, not both.");
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return oauthError("invalid_client", "Malformed Basic credentials.", 401, { "WWW-Authenticate": 'Basic realm="oauth"' });
    // RFC 6749 2.3.1: id and secret are form-urlencoded before Basic encoding.
    const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
    return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)), method: "basic" };
  }
  const clientId = form.get("client_id");
  if (!clientId) return oauthError("invalid_client", "Client authentication is required.", 401, { "WWW-Authenticate": 'Basic realm="oauth"' });
  const secret = form.get("client_secret") ?? undefined;
  return { clientId, secret, method: secret === undefined ? "none" : "post" };
};

const grantClientCredentials = async (auth: ClientAuth, form: URLSearchParams): Promise<Response> => {
  const client = await db().apiClient.findUnique({ where: { id: auth.clientId } });
  if (!client || client.revokedAt || !auth.secret || !secretMatches(auth.secret, client.secretHash)) {
    return oauthError("invalid_client", "Client authentication failed.", 401, auth.method === "basic" ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {});
  }
  const grantable = client.scopes.filter((scope) => clientCredentialsScopes.includes(scope as never));
  const requested = form.has("scope") ? parseScopeString(form.get("scope")) : grantable;
  const refused = requested.filter((scope) => !grantable.includes(scope));
  if (refused.length) return oauthError("invalid_scope", `Not available to this client on this grant: ${refused.join(" ")}.`);
  if (!requested.length) return oauthError("invalid_scope", "The client holds no scope this grant can carry.");
  const { token } = await issueAccessToken(db(), { clientId: client.id, scopes: requested, now: systemClock.now() });
  return new Response(
    JSON.stringify({ token_type: "Bearer", expires_in: accessTokenLifetimeSeconds, access_token: token, scope: requested.join(" ") }),
    { status: 200, headers: noStore },
  );
};

const grants: Record<string, (auth: ClientAuth, form: URLSearchParams) => Promise<Response>> = {
  client_credentials: grantClientCredentials,
};

export const handleTokenRequest = async (request: Request): Promise<Response> => {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return oauthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(await request.text());
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError("invalid_request", `Parameter ${name} is repeated.`);
  }
  const grantType = form.get("grant_type");
  if (!grantType) return oauthError("invalid_request", "grant_type is required.");
  const grant = grants[grantType];
  if (!grant) return oauthError("unsupported_grant_type", `grant_type ${grantType} is not supported.`);
  const auth = readClientAuth(request, form);
  if (auth instanceof Response) return auth;
  try {
    return await grant(auth, form);
  } catch (error) {
    // Never answer invalid_grant for an outage: clients would throw away valid credentials.
    if (isDatabaseUnavailable(error)) return oauthError("temporarily_unavailable", "Retry shortly.", 503, { "Retry-After": "5" });
    throw error;
  }
};
