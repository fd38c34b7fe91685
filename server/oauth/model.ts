/**
 * The model of @node-oauth/oauth2-server. The library runs the protocol (request
 * checks, PKCE verification, redirect URI and client matching, rotation); this model stores
 * codes and tokens as SHA-256 only, binds each to its grant, and makes "first use" one conditional
 * update so concurrent requests cannot both win.
 *
 * The library's `user` is the grant: { id: person id, grantId, audience, grantScopes }, so every
 * token it saves lands on the right grant and audience.
 */
import type {
  AuthorizationCode,
  Client,
  RefreshToken,
  Token,
  User,
} from "@node-oauth/oauth2-server";
import { InvalidRequestError } from "@node-oauth/oauth2-server";
import { type Db, inTransaction, type Tx } from "../platform/db";
import { canLink } from "./client-auth";
import { findClientCredentials, isCurrentEnvironment } from "../auth";
import { secretMatches, storeAccessToken } from "../auth";
import { randomSecret } from "../core/ids";
import { refreshTokenLifetimeSeconds } from "./lifetimes";
import { revokeGrant } from "./grants";
import {
  extendGrant,
  findCode,
  findRefreshToken,
  insertCode,
  insertRefreshToken,
  spendCode,
  spendRefreshToken,
} from "./store";

/** The library's user: the grant being exercised. */
export type GrantUser = User & {
  id: string;
  grantId: string;
  audience: string;
  grantScopes: string[];
};

type StoredCode = AuthorizationCode & { id: string; isRevoked: boolean; user: GrantUser };
type StoredRefreshToken = RefreshToken & { id: string; usedAt: Date | null; user: GrantUser };

const linkingGrants = ["authorization_code", "refresh_token"];

const toLibraryClient = (client: {
  id: string;
  kind: string;
  linkingEnabled: boolean;
  redirectUris: string[];
  scopes: string[];
}): Client => ({
  id: client.id,
  kind: client.kind,
  scopes: client.scopes,
  redirectUris: client.redirectUris,
  grants: canLink(client) ? linkingGrants : [],
});

type ModelOptions = { purpose: "authorize" | "token"; approvedScopes?: string[] };

const createModelMethods = (db: Db | Tx, options: ModelOptions) => ({
  /**
   * At the token endpoint: the client these credentials prove (a confidential client needs its
   * secret; a public agent must send none). At authorize: the client by id (the person is the one
   * authenticating there).
   */
  getClient: async (clientId: string, clientSecret: string | null | undefined) => {
    const client = await findClientCredentials(db, clientId);
    if (!client || client.revokedAt || !isCurrentEnvironment(client.environment)) return null;
    if (options.purpose === "token") {
      const isPublic = client.kind === "agent" && client.secretHash === null;
      const authenticated = isPublic
        ? !clientSecret
        : Boolean(clientSecret) && secretMatches(clientSecret!, client.secretHash);
      if (!authenticated) return null;
    }
    return toLibraryClient(client);
  },

  /** Exact string match, as RFC 9700 requires (the registered list was validated when it was saved). */
  validateRedirectUri: async (redirectUri: string, client: Client) =>
    (client.redirectUris as string[]).includes(redirectUri),

  /** At authorize, the scopes the person approved; at the token endpoint, the code's scopes unchanged. */
  validateScope: async (_user: User, _client: Client, scope?: string[]) =>
    options.purpose === "authorize"
      ? options.approvedScopes?.length
        ? options.approvedScopes
        : false
      : scope?.length
        ? scope
        : false,

  generateAuthorizationCode: async () => randomSecret("sac_"),
  generateAccessToken: async () => randomSecret("sat_"),
  generateRefreshToken: async () => randomSecret("srt_"),

  saveAuthorizationCode: async (
    code: Pick<
      AuthorizationCode,
      | "authorizationCode"
      | "expiresAt"
      | "redirectUri"
      | "scope"
      | "codeChallenge"
      | "codeChallengeMethod"
    >,
    client: Client,
    user: User,
  ) => {
    // Defence in depth: authorize-request.ts already refused requests without S256 PKCE.
    if (!code.codeChallenge || code.codeChallengeMethod !== "S256")
      throw new InvalidRequestError("Invalid request: PKCE with S256 is required");
    const grant = user as GrantUser;
    await insertCode(db, {
      code: code.authorizationCode,
      grantId: grant.grantId,
      clientId: client.id,
      redirectUri: code.redirectUri,
      scopes: code.scope ?? [],
      codeChallenge: code.codeChallenge,
      expiresAt: code.expiresAt,
    });
    return { ...code, client, user };
  },

  /** The code, also when already used (the grant type tells a valid replay from an invalid one). */
  getAuthorizationCode: async (value: string): Promise<StoredCode | null> => {
    const code = await findCode(db, value);
    if (!code) return null;
    return {
      id: code.id,
      authorizationCode: value,
      expiresAt: code.expiresAt,
      redirectUri: code.redirectUri,
      scope: code.scopes,
      codeChallenge: code.codeChallenge,
      codeChallengeMethod: "S256",
      client: { id: code.clientId, grants: linkingGrants },
      user: {
        id: code.grant.personId,
        grantId: code.grantId,
        audience: code.grant.audience,
        grantScopes: code.grant.scopes,
      },
      isRevoked: code.grant.revokedAt !== null,
    };
  },

  /** Marks the code used; false when it already was (one conditional update: exactly one caller wins). */
  revokeAuthorizationCode: (code: AuthorizationCode) =>
    spendCode(db, (code as StoredCode).id, new Date()),

  /** The refresh token, also when already used (reuse revokes the grant); none when its grant is revoked. */
  getRefreshToken: async (value: string): Promise<StoredRefreshToken | null> => {
    const token = await findRefreshToken(db, value);
    if (!token || token.grant.revokedAt) return null;
    return {
      id: token.id,
      refreshToken: value,
      refreshTokenExpiresAt: token.expiresAt,
      scope: token.scopes,
      usedAt: token.usedAt,
      client: { id: token.clientId, grants: linkingGrants },
      user: {
        id: token.grant.personId,
        grantId: token.grantId,
        audience: token.grant.audience,
        grantScopes: token.grant.scopes,
      },
    };
  },

  /** Marks the refresh token used; false when it already was. */
  revokeToken: (token: RefreshToken) =>
    spendRefreshToken(db, (token as StoredRefreshToken).id, new Date()),

  /** Revokes the grant of a replayed code or a reused refresh token. */
  revokeGrantFor: async (user: GrantUser, reason: "code_replayed" | "refresh_token_reused") =>
    revokeGrant(db, { grantId: user.grantId, reason, now: new Date() }),

  /**
   * Stores the new access token and refresh token on the grant. The refresh token keeps the
   * grant's full scope even when the access token was narrowed (RFC 6749 section 6).
   */
  saveToken: async (token: Token, client: Client, user: User) => {
    const grant = user as GrantUser;
    const refreshTokenExpiresAt =
      token.refreshTokenExpiresAt ?? new Date(Date.now() + refreshTokenLifetimeSeconds * 1000);
    await inTransaction(db, async (tx) => {
      await storeAccessToken(tx, token.accessToken, {
        clientId: client.id,
        personId: grant.id,
        grantId: grant.grantId,
        scopes: token.scope ?? [],
        audience: grant.audience,
        expiresAt: token.accessTokenExpiresAt!,
      });
      if (token.refreshToken) {
        await insertRefreshToken(tx, {
          token: token.refreshToken,
          grantId: grant.grantId,
          clientId: client.id,
          scopes: grant.grantScopes,
          expiresAt: refreshTokenExpiresAt,
        });
      }
      await extendGrant(tx, grant.grantId, refreshTokenExpiresAt);
    });
    return { ...token, client, user };
  },

  /** Unused: resource servers authenticate bearer tokens with tokens.ts. Required by the library's types. */
  getAccessToken: async () => null,
});

export type OAuthModel = ReturnType<typeof createModelMethods> & {
  /**
   * Runs `work` with a model whose every statement belongs to one transaction: spending a code or
   * refresh token and saving the tokens it buys commit together or not at all, so an outage in
   * between leaves the credential unspent for the client's retry.
   */
  transaction: <T>(work: (model: OAuthModel) => Promise<T>) => Promise<T>;
};

/** Options: `approvedScopes` is what the person ticked on the consent page (authorize only). */
export const createOAuthModel = (db: Db | Tx, options: ModelOptions): OAuthModel => ({
  ...createModelMethods(db, options),
  transaction: (work) => inTransaction(db, (tx) => work(createOAuthModel(tx, options))),
});
