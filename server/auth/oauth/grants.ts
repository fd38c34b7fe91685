/**
 * Grants: what a person approved for an app. Every code, refresh token and access token of a
 * grant dies with it, because token checks read the grant's revoked_at on every request; revoking
 * is therefore one update and takes effect on the very next request.
 */
import type { Db } from "../../db";

export type RevokeReason = "disconnected" | "code_replayed" | "refresh_token_reused" | "revoked_by_client";

type GrantWriter = Pick<Db, "oAuthGrant">;

/** Revokes one grant (a no-op when already revoked); logs replay and reuse as security events. */
export const revokeGrant = async (db: GrantWriter, options: { grantId: string; reason: RevokeReason; now: Date }) => {
  const { count } = await db.oAuthGrant.updateMany({
    where: { id: options.grantId, revokedAt: null },
    data: { revokedAt: options.now, revokedReason: options.reason },
  });
  if (count && (options.reason === "code_replayed" || options.reason === "refresh_token_reused")) {
    console.warn(`[security] grant ${options.grantId} revoked: ${options.reason}`);
  }
  return count > 0;
};

/** The person disconnects an app: every grant they gave it is revoked at once. */
export const disconnectApp = async (db: GrantWriter, options: { personId: string; clientId: string; now: Date }) => {
  const { count } = await db.oAuthGrant.updateMany({
    where: { personId: options.personId, clientId: options.clientId, revokedAt: null },
    data: { revokedAt: options.now, revokedReason: "disconnected" },
  });
  return count;
};

/**
 * The apps a person has connected: live grants (not revoked, not expired, client not revoked)
 * grouped by app, with every scope they hold and when the person last approved.
 */
export const listConnectedApps = async (db: Pick<Db, "oAuthGrant">, options: { personId: string; now: Date }) => {
  const grants = await db.oAuthGrant.findMany({
    where: { personId: options.personId, revokedAt: null, expiresAt: { gt: options.now }, client: { revokedAt: null } },
    select: { createdAt: true, scopes: true, client: { select: { id: true, name: true, kind: true } } },
    orderBy: { createdAt: "desc" },
  });
  const apps = new Map<string, { client_id: string; name: string; kind: "partner" | "agent"; scopes: string[]; approved_at: Date }>();
  for (const grant of grants) {
    const app = apps.get(grant.client.id) ?? { client_id: grant.client.id, name: grant.client.name, kind: grant.client.kind, scopes: [], approved_at: grant.createdAt };
    app.scopes = [...new Set([...app.scopes, ...grant.scopes])];
    apps.set(grant.client.id, app);
  }
  return [...apps.values()];
};
