/**
 * POST /oauth/token. Answers in the shape of RFC 6749 section 5 (success) and 5.2 (errors), always
 * with Cache-Control: no-store. Client authentication: client_secret_basic or client_secret_post,
 * never both; `none` for public agents. Grants are dispatched by grant_type: client_credentials
 * here; authorization_code and refresh_token through the OAuth library (oauth/token-grants.ts).
 */
import { db, isDatabaseUnavailable } from "../platform/db";
import { systemClock } from "../platform/clock";
import { accessTokenLifetimeSeconds, issueAccessToken } from "../auth";
import { clientAudienceForResource, clientCredentialsScopes, parseScopeString } from "../auth";
import { clientIp } from "../platform/http/client-ip";
import { admit, authLimits } from "../auth";
import {
  authenticateClientFrom,
  invalidClient,
  readClientAuth,
  type AuthenticatedClient,
  type ClientAuth,
} from "./client-auth";
import { oauthError, oauthJson, oauthLimited, oauthUnavailable, readForm } from "./responses";
import { exchangeAuthorizationCode, exchangeRefreshToken } from "./token-grants";

const grantClientCredentials = async (
  auth: ClientAuth,
  form: URLSearchParams,
  client: AuthenticatedClient,
): Promise<Response> => {
  // A public client (no secret) cannot use this grant: it could not prove who it is.
  if (client.secretHash === null) return invalidClient(auth);
  // RFC 8707 2: a resource this grant cannot serve is refused, never answered with a token it would refuse.
  const audience = clientAudienceForResource(form.get("resource") ?? undefined);
  if (audience === undefined)
    return oauthError(
      "invalid_target",
      "resource is not a resource this server issues client-credentials tokens for; the account connector needs a person's authorization.",
    );
  const grantable = client.scopes.filter((scope) =>
    clientCredentialsScopes.includes(scope as never),
  );
  const requested = form.has("scope") ? parseScopeString(form.get("scope")) : grantable;
  const refused = requested.filter((scope) => !grantable.includes(scope));
  if (refused.length)
    return oauthError(
      "invalid_scope",
      `Not available to this client on this grant: ${refused.join(" ")}.`,
    );
  if (!requested.length)
    return oauthError("invalid_scope", "The client holds no scope this grant can carry.");
  const { token } = await issueAccessToken(db(), {
    clientId: client.id,
    scopes: requested,
    audience,
    now: systemClock.now(),
  });
  return oauthJson({
    token_type: "Bearer",
    expires_in: accessTokenLifetimeSeconds,
    access_token: token,
    scope: requested.join(" "),
  });
};

const grants: Record<
  string,
  (auth: ClientAuth, form: URLSearchParams, client: AuthenticatedClient) => Promise<Response>
> = {
  client_credentials: grantClientCredentials,
  authorization_code: exchangeAuthorizationCode,
  refresh_token: exchangeRefreshToken,
};

/**
 * Authenticates the client, counting a failure against the address (refused while that count is
 * spent), then counts the request against the client's own limit (only once authenticated, so
 * nobody can spend another partner's limit with its public client_id).
 */
const authenticateWithinLimits = async (
  auth: ClientAuth,
  ip: string,
): Promise<AuthenticatedClient | Response> => {
  const client = await authenticateClientFrom(db(), auth, ip);
  if (client instanceof Response) return client;
  return (await oauthLimited(() => admit(authLimits.tokenPerClient, client.id))) ?? client;
};

export const handleTokenRequest = async (request: Request): Promise<Response> => {
  const ip = clientIp(request.headers);
  const limited = await oauthLimited(() => admit(authLimits.tokenPerIp, ip));
  if (limited) return limited;
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const grantType = form.get("grant_type");
  if (!grantType) return oauthError("invalid_request", "grant_type is required.");
  const grant = grants[grantType];
  if (!grant)
    return oauthError("unsupported_grant_type", `grant_type ${grantType} is not supported.`);
  const auth = readClientAuth(request, form);
  if (auth instanceof Response) return auth;
  try {
    const client = await authenticateWithinLimits(auth, ip);
    if (client instanceof Response) return client;
    return await grant(auth, form, client);
  } catch (error) {
    // Never answer invalid_grant for an outage: clients would throw away valid credentials.
    if (isDatabaseUnavailable(error)) return oauthUnavailable();
    throw error;
  }
};
