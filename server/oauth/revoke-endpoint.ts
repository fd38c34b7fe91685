/**
 * POST /oauth/revoke (RFC 7009). The client authenticates as at the token endpoint. Revoking a
 * refresh token revokes its whole grant (every access token issued with it stops at once);
 * revoking an access token stops that token. Unknown tokens, tokens of other clients and any
 * token_type_hint answer 200 all the same, so the answer tells nothing. A database outage is 503
 * with Retry-After (the client must assume the token still works).
 */
import { systemClock } from "../platform/clock";
import { db, isDatabaseUnavailable } from "../platform/db";
import { clientIp } from "../platform/http/client-ip";
import { admit, authLimits, revokeAccessToken } from "../auth";
import { authenticateClientFrom, readClientAuth } from "./client-auth";
import { sha256 } from "../core/ids";
import { revokeGrant } from "./grants";
import { findRefreshTokenOwner } from "./store";
import { oauthError, oauthLimited, oauthUnavailable, readForm } from "./responses";

const revoked = () => new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });

export const handleRevokeRequest = async (request: Request): Promise<Response> => {
  const ip = clientIp(request.headers);
  const limited = await oauthLimited(() => admit(authLimits.revokePerIp, ip));
  if (limited) return limited;
  const form = await readForm(request);
  if (form instanceof Response) return form;
  const token = form.get("token");
  if (!token) return oauthError("invalid_request", "token is required.");
  const auth = readClientAuth(request, form);
  if (auth instanceof Response) return auth;
  try {
    const client = await authenticateClientFrom(db(), auth, ip);
    if (client instanceof Response) return client;
    const now = systemClock.now();
    const hash = sha256(token);
    // Look at both kinds whatever the hint says (RFC 7009 2.1 lets the server ignore it).
    const refresh = await findRefreshTokenOwner(db(), token);
    if (refresh?.clientId === client.id) {
      await revokeGrant(db(), { grantId: refresh.grantId, reason: "revoked_by_client", now });
      return revoked();
    }
    await revokeAccessToken(db(), { tokenHash: hash, clientId: client.id, now });
    return revoked();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return oauthUnavailable();
    throw error;
  }
};
