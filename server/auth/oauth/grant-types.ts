/**
 * The library's authorization_code and refresh_token grants, with the order of steps this service
 * needs (RELIABILITY.md section 0) and the library's own checks reused for everything else:
 *
 * authorization_code: the library finds the code (client match, 10-minute expiry); the code is
 * marked used before PKCE is checked, so a wrong verifier burns it; PKCE and redirect_uri are then
 * verified. Only when every check passed and the code had already been used is it a valid replay,
 * and then the grant (everything the code issued) is revoked. An invalid replay revokes nothing.
 *
 * refresh_token: the library finds the token (client match, 30-day expiry). A used token presented
 * again revokes the whole grant. A wider scope is refused before the token is spent, so the client
 * keeps it. Of two concurrent uses exactly one wins the conditional update; the other is a reuse
 * (strict rotation, DESIGN.md), so the grant is revoked and neither result stays usable.
 */
import { InvalidGrantError, InvalidRequestError, OAuthError, type AuthorizationCode, type Client, type RefreshToken, type Request } from "@node-oauth/oauth2-server";
import AuthorizationCodeGrantType from "@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type";
import RefreshTokenGrantType from "@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type";
import { audienceForResource } from "../resources";
import type { GrantUser, OAuthModel } from "./model";

type StoredCode = AuthorizationCode & { isRevoked: boolean; user: GrantUser };
type StoredRefreshToken = RefreshToken & { usedAt: Date | null; user: GrantUser };

/** RFC 8707: a `resource` at the token endpoint must name the audience the person approved. */
const checkResource = (request: Request, user: GrantUser) => {
  const resource = request.body.resource as string | undefined;
  if (resource !== undefined && audienceForResource(resource) !== user.audience) {
    throw new OAuthError("Invalid target: `resource` is not the resource this authorization is for", { code: 400, name: "invalid_target" });
  }
};

export class CodeGrant extends AuthorizationCodeGrantType {
  async handle(request: Request, client: Client) {
    const model = this.model as OAuthModel;
    const code = (await this.getAuthorizationCode(request, client)) as StoredCode;
    const isFirstUse = await model.revokeAuthorizationCode(code);
    this.verifyPKCE(request, code);
    this.validateRedirectUri(request, code);
    checkResource(request, code.user);
    if (!isFirstUse) {
      await model.revokeGrantFor(code.user, "code_replayed");
      throw new InvalidGrantError("Invalid grant: the authorization code was already used; the tokens issued from it are revoked");
    }
    if (code.isRevoked) throw new InvalidGrantError("Invalid grant: the authorization was revoked");
    return this.saveToken(code.user, client, code.authorizationCode, code.scope);
  }

  /** RFC 6749 5.2: a redirect_uri that differs from the authorization request's is invalid_grant. */
  validateRedirectUri(request: Request, code: AuthorizationCode) {
    const given = request.body.redirect_uri;
    if (!given) throw new InvalidRequestError("Missing parameter: `redirect_uri`");
    if (given !== code.redirectUri) throw new InvalidGrantError("Invalid grant: `redirect_uri` differs from the authorization request");
  }
}

export class RefreshGrant extends RefreshTokenGrantType {
  async handle(request: Request, client: Client) {
    const model = this.model as OAuthModel;
    const token = (await this.getRefreshToken(request, client)) as StoredRefreshToken;
    if (token.usedAt) {
      await model.revokeGrantFor(token.user, "refresh_token_reused");
      throw new InvalidGrantError("Invalid grant: the refresh token was already used; the authorization is revoked");
    }
    checkResource(request, token.user);
    const scope = this.getScope(request, token);
    if (!(await model.revokeToken(token))) {
      await model.revokeGrantFor(token.user, "refresh_token_reused");
      throw new InvalidGrantError("Invalid grant: the refresh token was used concurrently; the authorization is revoked");
    }
    return this.saveToken(token.user, client, scope);
  }
}
