/**
 * The queries of the OAuth server's tables: `oauth_grants` (what a person approved for an app),
 * `authorization_codes` and `refresh_tokens` (each bound to its grant, stored as SHA-256 only) and
 * `registration_tokens` (initial access tokens for agent registration). Prisma: codes and refresh
 * tokens are spent once per token request, where the client's secret check and the library's work
 * cost as much (docs/performance.md#token). Withdrawing a scope is raw SQL (`array_remove` has no
 * Prisma form). Clients and access tokens are auth's tables (its index).
 */
import { randomId, sha256 } from "../core/ids";
import type { Db, Tx } from "../platform/db";

type Client = Db | Tx;

// Grants

/** Records what the person approved; the grant lives as long as its refresh tokens (`extendGrant`). */
export const insertGrant = (
  db: Client,
  grant: {
    clientId: string;
    personId: string;
    scopes: string[];
    audience: string;
    consentNonce: string;
    expiresAt: Date;
  },
) => db.oAuthGrant.create({ data: { id: randomId("grt_"), ...grant } });

/** The grant now lives until its newest refresh token expires. */
export const extendGrant = (db: Client, grantId: string, expiresAt: Date) =>
  db.oAuthGrant.update({ where: { id: grantId }, data: { expiresAt } });

/** Revokes one grant unless it already is; its person and client, or undefined when nothing changed. */
export const revokeGrantRow = async (
  db: Client,
  options: { grantId: string; reason: string; now: Date },
) =>
  (
    await db.oAuthGrant.updateManyAndReturn({
      where: { id: options.grantId, revokedAt: null },
      data: { revokedAt: options.now, revokedReason: options.reason },
      select: { personId: true, clientId: true },
    })
  )[0];

/** Revokes every live grant the person gave the app; how many. */
export const revokeGrantsOfApp = async (
  db: Client,
  options: { personId: string; clientId: string; reason: string; now: Date },
) =>
  (
    await db.oAuthGrant.updateMany({
      where: { personId: options.personId, clientId: options.clientId, revokedAt: null },
      data: { revokedAt: options.now, revokedReason: options.reason },
    })
  ).count;

/**
 * Removes `scope` from the live grants the person gave the app that hold it, and from their
 * unspent refresh tokens and codes; the grants changed, with the scopes each has left.
 */
export const removeScopeFromGrants = async (
  tx: Client,
  options: { personId: string; clientId: string; scope: string },
) => {
  const { personId, clientId, scope } = options;
  const grants = await tx.$queryRaw<{ id: string; scopes: string[] }[]>`
      UPDATE oauth_grants SET scopes = array_remove(scopes, ${scope})
      WHERE person_id = ${personId} AND client_id = ${clientId} AND revoked_at IS NULL AND ${scope} = ANY(scopes)
      RETURNING id, scopes`;
  if (!grants.length) return grants;
  const ids = grants.map((grant) => grant.id);
  await tx.$executeRaw`UPDATE refresh_tokens SET scopes = array_remove(scopes, ${scope}) WHERE grant_id = ANY(${ids}) AND used_at IS NULL`;
  await tx.$executeRaw`UPDATE authorization_codes SET scopes = array_remove(scopes, ${scope}) WHERE grant_id = ANY(${ids}) AND consumed_at IS NULL`;
  return grants;
};

/** Revokes these grants (left with no scope) unless they already are. */
export const revokeGrants = (db: Client, options: { ids: string[]; reason: string; now: Date }) =>
  db.oAuthGrant.updateMany({
    where: { id: { in: options.ids }, revokedAt: null },
    data: { revokedAt: options.now, revokedReason: options.reason },
  });

/** The scopes of each grant the person gave the app that is not revoked (and, given `liveAt`, not expired then). */
export const findGrantScopes = async (
  db: Client,
  options: { personId: string; clientId: string; liveAt?: Date },
) =>
  (
    await db.oAuthGrant.findMany({
      where: {
        personId: options.personId,
        clientId: options.clientId,
        revokedAt: null,
        ...(options.liveAt ? { expiresAt: { gt: options.liveAt } } : {}),
      },
      select: { scopes: true },
    })
  ).map((grant) => grant.scopes);

/** The person's live grants (not revoked, not expired), newest first. */
export const listLiveGrants = (db: Client, options: { personId: string; now: Date }) =>
  db.oAuthGrant.findMany({
    where: { personId: options.personId, revokedAt: null, expiresAt: { gt: options.now } },
    select: { createdAt: true, scopes: true, clientId: true },
    orderBy: { createdAt: "desc" },
  });

// Authorization codes and refresh tokens

const grantOfCredential = {
  grant: { select: { personId: true, audience: true, scopes: true, revokedAt: true } },
} as const;

export const insertCode = (
  db: Client,
  code: {
    code: string;
    grantId: string;
    clientId: string;
    redirectUri: string;
    scopes: string[];
    codeChallenge: string;
    expiresAt: Date;
  },
) =>
  db.authorizationCode.create({
    data: {
      id: randomId("cod_"),
      codeHash: sha256(code.code),
      grantId: code.grantId,
      clientId: code.clientId,
      redirectUri: code.redirectUri,
      scopes: code.scopes,
      codeChallenge: code.codeChallenge,
      expiresAt: code.expiresAt,
    },
  });

/** A code by its value, with its grant, also when already used; null when unknown. */
export const findCode = (db: Client, code: string) =>
  db.authorizationCode.findUnique({
    where: { codeHash: sha256(code) },
    include: grantOfCredential,
  });

/** Marks the code used; false when it already was (one conditional update: exactly one caller wins). */
export const spendCode = async (db: Client, id: string, now: Date) =>
  (
    await db.authorizationCode.updateMany({
      where: { id, consumedAt: null },
      data: { consumedAt: now },
    })
  ).count === 1;

export const insertRefreshToken = (
  db: Client,
  token: { token: string; grantId: string; clientId: string; scopes: string[]; expiresAt: Date },
) =>
  db.refreshToken.create({
    data: {
      id: randomId("rtk_"),
      tokenHash: sha256(token.token),
      grantId: token.grantId,
      clientId: token.clientId,
      scopes: token.scopes,
      expiresAt: token.expiresAt,
    },
  });

/** A refresh token by its value, with its grant, also when already used; null when unknown. */
export const findRefreshToken = (db: Client, token: string) =>
  db.refreshToken.findUnique({ where: { tokenHash: sha256(token) }, include: grantOfCredential });

/** Marks the refresh token used; false when it already was. */
export const spendRefreshToken = async (db: Client, id: string, now: Date) =>
  (await db.refreshToken.updateMany({ where: { id, usedAt: null }, data: { usedAt: now } }))
    .count === 1;

/** The grant and client of a refresh token (RFC 7009 revocation); null when unknown. */
export const findRefreshTokenOwner = (db: Client, token: string) =>
  db.refreshToken.findUnique({
    where: { tokenHash: sha256(token) },
    select: { grantId: true, clientId: true },
  });

// Registration tokens

/** Issues an initial access token for agent registration; only its hash is stored. */
export const insertRegistrationToken = (
  db: Client,
  token: { token: string; note?: string; maxUses: number; expiresAt: Date },
) =>
  db.registrationToken.create({
    data: {
      id: randomId("rgt_"),
      tokenHash: sha256(token.token),
      note: token.note,
      maxUses: token.maxUses,
      expiresAt: token.expiresAt,
    },
  });

/** Spends one use of an initial access token; false when unknown, revoked, expired or spent. */
export const spendRegistrationToken = async (db: Db, token: string, now: Date) =>
  (
    await db.registrationToken.updateMany({
      where: {
        tokenHash: sha256(token),
        revokedAt: null,
        expiresAt: { gt: now },
        uses: { lt: db.registrationToken.fields.maxUses },
      },
      data: { uses: { increment: 1 } },
    })
  ).count === 1;
