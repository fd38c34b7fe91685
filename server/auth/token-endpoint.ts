/**
 * POST /oauth/token. Answers in the shape of RFC 6749 section 5 (success) and 5.2 (errors), always
 * with Cache-Control: no-store. Client authentication: client_secret_basic or client_secret_post,
 * never both; `none` for public agents. Grants are dispatched by grant_type: client_credentials
 * here; authorization_code and refresh_token through the OAuth library (oauth/token-grants.ts).
 */
import { db, isDatabaseUnavailable } from "../db";
import { systemClock } from "../clock";
import { accessTokenLifetimeSeconds, issueAccessToken } from "./tokens";
import { clientCredentialsScopes, parseScopeString } from "./scopes";
import { authenticateClient, invalidClient, readClientAuth, type ClientAuth } from "./client-auth";
import { oauthError, oauthJson, oauthUnavailable, readForm } from "./oauth/responses";
import { exchangeAuthorizationCode, exchangeRefreshToken } from "./oauth/token-grants";

const grantClientCredentials = async (auth: ClientAuth, form: URLSearchParams): Promise<Response> => {
  const client = await authenticateClient(db(), auth);
  // A public client (no secret) cannot use this grant: it could not prove who it is.
  if (!client || client.secretHash === null) return invalidClient(auth);
  const grantable = client.scopes.filter((scope) => clientCredentialsScopes.includes(scope as never));
  const requested = form.has("scope") ? parseScopeString(form.get("scope")) : grantable;
  const refused = requested.filter((scope) => !grantable.includes(scope));
  if (refused.length) return oauthError("invalid_scope", `Not available to this client on this grant: ${refused.join(" ")}.`);
  if (!requested.length) return oauthError("invalid_scope", "The client holds no scope this grant can carry.");
  const { token } = await issueAccessToken(db(), { clientId: client.id, scopes: requested, now: systemClock.now() });
  return oauthJson({ token_type: "Bearer", expires_in: accessTokenLifetimeSeconds, access_token: token, scope: requested.join(" ") });
};

const grants: Record<string, (auth: ClientAuth, form: URLSearchParams) => Promise<Response>> = {
  client_credentials: grantClientCredentials,
  authorization_code: exchangeAuthorizationCode,
  refresh_token: exchangeRefreshToken,
};

export const handleTokenRequest = async (request: Request): Promise<Response> => {
  const form = await readForm(request);
  if (form instanceof Response) return form;
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
    if (isDatabaseUnavailable(error)) return oauthUnavailable();
    throw error;
  }
};
