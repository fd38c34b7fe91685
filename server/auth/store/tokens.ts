/**
 * The queries of `access_tokens`. The bearer lookup runs on every API request, so it is one named
 * statement on the raw `pg` pool (docs/adr/0014-raw-sql-on-hot-paths.md: a Prisma query costs
 * ~0.95 ms of CPU, a statement on a `pg` client ~0.06 ms; `npm run bench -- token`,
 * docs/performance.md#token). It reads the token's client and grant in the same statement: the
 * grant's revocation and scopes (`oauth_grants`, oauth's table; oauth sits above auth) decide a
 * linked token's fate on every request. The other statements are Prisma.
 */
import { randomId, sha256 } from "../../core/ids";
import { type Db, rawPool, type Tx } from "../../platform/db";

/** The audience of tokens for the REST API (RFC 8707 resource). */
export const restAudience = "api";

export type AccessTokenRecord = {
  clientId: string;
  scopes: readonly string[];
  audience?: string;
  personId?: string;
  grantId?: string;
  expiresAt: Date;
};

/** Stores an access token the caller generated; only its hash is kept. */
export const storeAccessToken = (
  db: Pick<Db, "accessToken">,
  token: string,
  record: AccessTokenRecord,
) =>
  db.accessToken.create({
    data: {
      id: randomId("tok_"),
      tokenHash: sha256(token),
      clientId: record.clientId,
      personId: record.personId,
      grantId: record.grantId,
      scopes: [...record.scopes],
      audience: record.audience ?? restAudience,
      expiresAt: record.expiresAt,
    },
  });

export type BearerTokenRow = {
  id: string;
  client_id: string;
  person_id: string | null;
  scopes: string[];
  audience: string;
  expires_at: Date;
  revoked_at: Date | null;
  client_revoked_at: Date | null;
  client_environment: string;
  grant_revoked_at: Date | null;
  grant_scopes: string[] | null;
};

const bearerTokenSql = `SELECT t.id, t.client_id, t.person_id, t.scopes, t.audience, t.expires_at, t.revoked_at,
    c.revoked_at AS client_revoked_at, c.environment::text AS client_environment, g.revoked_at AS grant_revoked_at, g.scopes AS grant_scopes
  FROM access_tokens t JOIN api_clients c ON c.id = t.client_id LEFT JOIN oauth_grants g ON g.id = t.grant_id
  WHERE t.token_hash = $1`;

/** The token of this SHA-256, with its client's and grant's state; undefined when unknown. */
export const findBearerToken = async (tokenHash: string) =>
  (
    await rawPool().query<BearerTokenRow>({
      name: "access-token",
      text: bearerTokenSql,
      values: [tokenHash],
    })
  ).rows[0];

/** Revokes the client's own tokens (client credentials; linked tokens stay with their grants). */
export const revokeClientCredentialsTokens = (db: Db | Tx, clientId: string, now: Date) =>
  db.accessToken.updateMany({
    where: { clientId, personId: null, revokedAt: null },
    data: { revokedAt: now },
  });

/** Revokes every token of the client. */
export const revokeTokensOfClient = (db: Db | Tx, clientId: string, now: Date) =>
  db.accessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } });

/** Revokes one token of the client by its hash (RFC 7009); nothing when it is another client's. */
export const revokeAccessToken = (
  db: Db | Tx,
  options: { tokenHash: string; clientId: string; now: Date },
) =>
  db.accessToken.updateMany({
    where: { tokenHash: options.tokenHash, clientId: options.clientId, revokedAt: null },
    data: { revokedAt: options.now },
  });
