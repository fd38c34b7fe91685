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
 *
 * Both: spending the credential and saving the new tokens are one transaction, so a database
 * failure in between leaves it unspent and the client's retry is not mistaken for a replay.
 */
import {
  InvalidGrantError,
  InvalidRequestError,
  OAuthError,
  type AuthorizationCode,
  type Client,
  type RefreshToken,
  type Request,
  type Token,
} from "@node-oauth/oauth2-server";
import AuthorizationCodeGrantType from "@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type";
import RefreshTokenGrantType from "@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type";
import { audienceForResource } from "../auth";
import type { GrantUser, OAuthModel } from "./model";

type StoredCode = AuthorizationCode & { isRevoked: boolean; user: GrantUser };
type StoredRefreshToken = RefreshToken & { usedAt: Date | null; user: GrantUser };

/** RFC 8707: a `resource` at the token endpoint must name the audience the person approved. */
const checkResource = (request: Request, user: GrantUser) => {
  const resource = request.body.resource as string | undefined;
  if (resource !== undefined && audienceForResource(resource) !== user.audience) {
    throw new OAuthError(
      "Invalid target: `resource` is not the resource this authorization is for",
      { code: 400, name: "invalid_target" },
    );
  }
};

/** A refusal to throw once the transaction committed (what it spent stays spent), or the tokens. */
type Outcome = { refusal: OAuthError } | { token: Token };

/** The OAuth error `check` throws, or undefined; other errors propagate (and roll back). */
const refusalOf = (check: () => void): OAuthError | undefined => {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
};

/** Runs `work` in one transaction of the model, then throws its refusal or returns its tokens. */
const settle = async (model: OAuthModel, work: (spending: OAuthModel) => Promise<Outcome>) => {
  const outcome = await model.transaction(work);
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.token;
};

/** The library's saveToken, writing through `model` (the transaction's) instead of the grant's own. */
const saveTokenWith = async <T>(
  grant: { model: unknown },
  model: OAuthModel,
  save: () => Promise<T>,
) => {
  const own = grant.model;
  grant.model = model;
  try {
    return await save();
  } finally {
    grant.model = own;
  }
};

export class CodeGrant extends AuthorizationCodeGrantType {
  async handle(request: Request, client: Client) {
    const code = (await this.getAuthorizationCode(request, client)) as StoredCode;
    // Spending the code and saving its tokens commit together: an outage in between leaves the code unspent for the retry.
    return settle(this.model as OAuthModel, async (spending) => {
      const isFirstUse = await spending.revokeAuthorizationCode(code);
      // A failed check still commits the spend: a wrong verifier burns the code (no online guessing).
      const refusal = refusalOf(() => {
        this.verifyPKCE(request, code);
        this.validateRedirectUri(request, code);
        checkResource(request, code.user);
      });
      if (refusal) return { refusal };
      if (!isFirstUse) {
        await spending.revokeGrantFor(code.user, "code_replayed");
        return {
          refusal: new InvalidGrantError(
            "Invalid grant: the authorization code was already used; the tokens issued from it are revoked",
          ),
        };
      }
      if (code.isRevoked)
        return { refusal: new InvalidGrantError("Invalid grant: the authorization was revoked") };
      return {
        token: await saveTokenWith(this as never, spending, () =>
          this.saveToken(code.user, client, code.authorizationCode, code.scope),
        ),
      };
    });
  }

  /** RFC 6749 5.2: a redirect_uri that differs from the authorization request's is invalid_grant. */
  validateRedirectUri(request: Request, code: AuthorizationCode) {
    const given = request.body.redirect_uri;
    if (!given) throw new InvalidRequestError("Missing parameter: `redirect_uri`");
    if (given !== code.redirectUri)
      throw new InvalidGrantError(
        "Invalid grant: `redirect_uri` differs from the authorization request",
      );
  }
}

export class RefreshGrant extends RefreshTokenGrantType {
  async handle(request: Request, client: Client) {
    const model = this.model as OAuthModel;
    const token = (await this.getRefreshToken(request, client)) as StoredRefreshToken;
    if (token.usedAt) {
      await model.revokeGrantFor(token.user, "refresh_token_reused");
      throw new InvalidGrantError(
        "Invalid grant: the refresh token was already used; the authorization is revoked",
      );
    }
    checkResource(request, token.user);
    const scope = this.getScope(request, token);
    // Spending the refresh token and saving its successors commit together (see CodeGrant).
    return settle(model, async (spending) => {
      if (!(await spending.revokeToken(token))) {
        await spending.revokeGrantFor(token.user, "refresh_token_reused");
        return {
          refusal: new InvalidGrantError(
            "Invalid grant: the refresh token was used concurrently; the authorization is revoked",
          ),
        };
      }
      return {
        token: await saveTokenWith(this as never, spending, () =>
          this.saveToken(token.user, client, scope),
        ),
      };
    });
  }
}
