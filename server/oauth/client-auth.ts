/**
 * Client authentication at the token and revocation endpoints (RFC 6749 2.3): client_secret_basic
 * or client_secret_post for partners, never both at once; `none` (client_id only) for public
 * clients, the assistants registered at /oauth/register/agent, which prove themselves with PKCE.
 */
import type { Db } from "../platform/db";
import { authLimits, recordFailure, refuseIfSpent } from "../auth";
import { findClientCredentials, isCurrentEnvironment } from "../auth";
import { oauthError, oauthLimited } from "./responses";
import { secretMatches } from "../auth";
import { findUnstorableInput } from "../core/storable-text";

export type ClientAuth = {
  clientId: string;
  secret: string | undefined;
  method: "basic" | "post" | "none";
};

/** The challenge of a 401 to a client that tried HTTP Basic (RFC 6749 5.2). */
export const basicChallenge = { "WWW-Authenticate": 'Basic realm="oauth"' };

/** The 401 invalid_client answer; with a Basic challenge when the client tried Basic (RFC 6749 5.2). */
export const invalidClient = (
  auth: Pick<ClientAuth, "method"> | undefined,
  description = "Client authentication failed.",
) => oauthError("invalid_client", description, 401, auth?.method === "basic" ? basicChallenge : {});

const formDecode = (value: string) => {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return undefined; // a malformed %-escape
  }
};

/** Id and secret of a Basic credential (base64 of id:secret, each form-urlencoded: RFC 6749 2.3.1), or undefined when malformed. */
const decodeBasic = (value: string) => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (!clientId || secret === undefined || findUnstorableInput({ clientId, secret }))
    return undefined;
  return { clientId, secret };
};

/** Reads client credentials from HTTP Basic or the form; refuses both at once. */
export const readClientAuth = (request: Request, form: URLSearchParams): ClientAuth | Response => {
  const header = request.headers.get("authorization");
  const basic = header && /^Basic\s+(.+)$/i.exec(header);
  if (basic) {
    if (form.has("client_secret"))
      return oauthError("invalid_request", "Use one client authentication method, not both.");
    const credentials = decodeBasic(basic[1].trim());
    if (!credentials)
      return oauthError("invalid_client", "Malformed Basic credentials.", 401, basicChallenge);
    return { ...credentials, method: "basic" };
  }
  const clientId = form.get("client_id");
  if (!clientId)
    return oauthError("invalid_client", "Client authentication is required.", 401, basicChallenge);
  const secret = form.get("client_secret") ?? undefined;
  return { clientId, secret, method: secret === undefined ? "none" : "post" };
};

/**
 * The client these credentials prove, or undefined: unknown, revoked, of the other environment,
 * a confidential client without its right secret, or a public client that sent a secret.
 */
const authenticateClient = async (db: Db, auth: ClientAuth) => {
  const client = await findClientCredentials(db, auth.clientId);
  if (!client || client.revokedAt || !isCurrentEnvironment(client.environment)) return undefined;
  const isPublic = client.secretHash === null && client.kind === "agent";
  if (isPublic) return auth.secret === undefined ? client : undefined;
  return auth.secret !== undefined && secretMatches(auth.secret, client.secretHash)
    ? client
    : undefined;
};

export type AuthenticatedClient = NonNullable<Awaited<ReturnType<typeof authenticateClient>>>;

/**
 * `authenticateClient` at the token and revocation endpoints: refused (429) while the address `ip`
 * has spent its failure count; a failed authentication counts against `ip` and answers invalid_client.
 */
export const authenticateClientFrom = async (
  db: Db,
  auth: ClientAuth,
  ip: string,
): Promise<AuthenticatedClient | Response> => {
  const failed = await oauthLimited(() => refuseIfSpent(authLimits.failuresPerIp, ip));
  if (failed) return failed;
  const client = await authenticateClient(db, auth);
  if (!client) {
    await recordFailure(authLimits.failuresPerIp, ip);
    return invalidClient(auth);
  }
  return client;
};

/** Whether a client may use account linking (authorization code and refresh token grants). */
export const canLink = (client: { kind: string; linkingEnabled: boolean }) =>
  client.kind === "agent" || client.linkingEnabled;
