/**
 * Opaque tokens and secrets: 32 random bytes, stored only as their SHA-256 (high-entropy values
 * need no slow KDF, and SHA-256 keeps the token endpoint fast). Revocation is a column checked on
 * every request, so it takes effect at once.
 */
import { timingSafeEqual } from "node:crypto";
import { randomSecret, sha256 } from "../core/ids";
import type { Db } from "../platform/db";
import { AppError } from "../core/errors";
import type { Actor } from "../platform/trpc/context";
import { isCurrentEnvironment } from "./environment";
import { findBearerToken, restAudience, storeAccessToken } from "./store/tokens";
import { type BearerOwner, forgetOwner, rememberOwner, rememberedOwner } from "./bearer-owners";

/** The audience of tokens for the REST API (RFC 8707 resource), the column's default. */
export { restAudience };

export const accessTokenLifetimeSeconds = 3600;
/** The audience of tokens for the account connector at /mcp/account (server/auth/resources.ts). */
export const mcpAccountAudience = "mcp-account";

/** Constant-time comparison of a presented secret with a stored SHA-256. */
export const secretMatches = (presented: string, storedHash: string | null): boolean => {
  if (!storedHash) return false;
  const a = Buffer.from(sha256(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Issues an access token; only its hash is stored. */
export const issueAccessToken = async (
  db: Db,
  options: {
    clientId: string;
    scopes: readonly string[];
    audience?: string;
    personId?: string;
    grantId?: string;
    now: Date;
  },
) => {
  const token = randomSecret("sat_");
  const expiresAt = new Date(options.now.getTime() + accessTokenLifetimeSeconds * 1000);
  await storeAccessToken(db, token, { ...options, expiresAt });
  return { token, expiresAt };
};

/** Reads `Authorization: Bearer <token>`; undefined when absent or another scheme. */
export const bearerToken = (header: string | null): string | undefined => {
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header?.trim() ?? "");
  return match?.[1];
};

/**
 * Resolves a bearer token to its actor, or throws 401 (missing, unknown, expired, revoked, wrong
 * audience). Reads the database on every request, so a revocation takes effect at once, and a linked
 * token's scopes are those its grant still holds (a scope withdrawn at consent stops at once too).
 */
export const authenticateBearer = async (
  header: string | null,
  now: Date,
  audience = restAudience,
): Promise<Actor> => {
  const token = bearerToken(header);
  if (!token) throw new AppError("unauthorized");
  const tokenHash = sha256(token);
  const record = await findBearerToken(tokenHash);
  // A linked token dies with its grant (disconnect, code replay, refresh reuse) and every token with its client.
  const isValid =
    record &&
    !record.revoked_at &&
    !record.client_revoked_at &&
    !record.grant_revoked_at &&
    isCurrentEnvironment(record.client_environment) &&
    record.expires_at > now &&
    record.audience === audience;
  if (!isValid) {
    forgetOwner(tokenHash);
    throw new AppError("unauthorized", {
      message: "The access token is invalid, expired or revoked.",
    });
  }
  const personId = record.person_id ?? undefined;
  rememberOwner(tokenHash, { clientId: record.client_id, personId });
  // A linked token may do only what its grant still allows: a scope the person withdrew since it was issued is gone at once.
  const scopes = record.grant_scopes
    ? record.scopes.filter((scope) => record.grant_scopes!.includes(scope))
    : record.scopes;
  return {
    kind: "client",
    clientId: record.client_id,
    tokenId: record.id,
    scopes,
    personId,
  };
};

/**
 * The client and person of a bearer token this process accepted before (bearer-owners.ts): a hint
 * for starting work that only needs to know them, never a substitute for `authenticateBearer`.
 */
export const bearerOwnerHint = (header: string | null): BearerOwner | undefined => {
  const token = bearerToken(header);
  return token ? rememberedOwner(sha256(token)) : undefined;
};
