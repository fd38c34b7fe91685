/**
 * Grants: what a person approved for an app. Every code, refresh token and access token of a
 * grant dies with it, because token checks read the grant's revoked_at on every request; revoking
 * is therefore one update and takes effect on the very next request. The price watches the app
 * set for the person end in the same transaction when no other grant lets it buy for them
 * (outcome assistant_disconnected, server/price-watches/watch-standing.ts).
 */
import { findClientSummaries } from "../auth";
import { type Db, inTransaction, type Tx } from "../platform/db";
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";
import { clientDisplayName } from "./authorize-request";
import {
  listLiveGrants,
  removeScopeFromGrants,
  revokeGrantRow,
  revokeGrants,
  revokeGrantsOfApp,
} from "./store";
import { logger } from "../platform/observability/log";

export type RevokeReason =
  | "disconnected"
  | "code_replayed"
  | "refresh_token_reused"
  | "revoked_by_client"
  | "scopes_withdrawn";

/**
 * Revokes one grant (a no-op when already revoked); logs replay and reuse as security events.
 * Given a transaction, the watches end in it (their expiry timers are told at once: a caller's
 * transaction that rolled back would only leave a live watch to the expiry sweep).
 */
export const revokeGrant = async (
  db: Db | Tx,
  options: { grantId: string; reason: RevokeReason; now: Date },
) => {
  const ended = await inTransaction(db, async (tx) => {
    const grant = await revokeGrantRow(tx, options);
    return grant && { watches: await endWatchesOutOfStanding(tx, grant, options.now) };
  });
  if (ended && (options.reason === "code_replayed" || options.reason === "refresh_token_reused")) {
    logger.warn({ grant_id: options.grantId, reason: options.reason }, "security: grant revoked");
  }
  notifyWatchesEnded(ended?.watches ?? []);
  return ended !== undefined;
};

/** The person disconnects an app: every grant they gave it is revoked at once; the number revoked. */
export const disconnectApp = async (
  db: Db,
  options: { personId: string; clientId: string; now: Date },
) => {
  const { count, watches } = await inTransaction(db, async (tx) => {
    const count = await revokeGrantsOfApp(tx, { ...options, reason: "disconnected" });
    return {
      count,
      watches: count
        ? await endWatchesOutOfStanding(
            tx,
            { personId: options.personId, clientId: options.clientId },
            options.now,
          )
        : [],
    };
  });
  notifyWatchesEnded(watches);
  return count;
};

/**
 * The person approved the app again and left opt-in `scopes` unticked: their latest decision wins,
 * so every live grant the app holds for them loses those scopes (its other scopes stay: an app may
 * hold several grants), as do its unspent codes and refresh tokens (so the token endpoint no longer
 * reports them); access tokens already issued lose them too, because a linked token's scopes are
 * read through its grant's on every request (tokens.ts). A grant left with no scope is revoked.
 * Losing purchase:write ends the app's watches for the person in the same transaction
 * (assistant_disconnected: the assistant lost its purchase:write grant, watch-standing.ts). Runs in
 * the caller's transaction; returns the ended watch ids for `notifyWatchesEnded` after the commit.
 */
export const withdrawScopes = async (
  tx: Tx,
  options: { personId: string; clientId: string; scopes: readonly string[]; now: Date },
) => {
  const { personId, clientId, now } = options;
  for (const scope of options.scopes) {
    const grants = await removeScopeFromGrants(tx, { personId, clientId, scope });
    const empty = grants.filter((grant) => !grant.scopes.length).map((grant) => grant.id);
    if (empty.length) await revokeGrants(tx, { ids: empty, reason: "scopes_withdrawn", now });
  }
  return options.scopes.includes("purchase:write")
    ? endWatchesOutOfStanding(tx, { personId, clientId }, now)
    : [];
};

/**
 * The apps a person has connected: live grants (not revoked, not expired, client not revoked)
 * grouped by app, with every scope they hold and when the person last approved. A metadata-document
 * client is named with its client_id host beside its self-asserted name, as on consent.
 */
export const listConnectedApps = async (db: Db | Tx, options: { personId: string; now: Date }) => {
  const live = await listLiveGrants(db, options);
  if (!live.length) return [];
  // A revoked client's grants are not shown (its tokens stopped with it).
  const clients = new Map(
    (await findClientSummaries(db, [...new Set(live.map((grant) => grant.clientId))]))
      .filter((client) => !client.revokedAt)
      .map((client) => [client.id, client]),
  );
  const grants = live.flatMap((grant) => {
    const client = clients.get(grant.clientId);
    return client ? [{ ...grant, client }] : [];
  });
  const apps = new Map<
    string,
    {
      client_id: string;
      name: string;
      kind: "partner" | "agent";
      scopes: string[];
      approved_at: Date;
    }
  >();
  for (const grant of grants) {
    const app = apps.get(grant.client.id) ?? {
      client_id: grant.client.id,
      name: clientDisplayName(grant.client),
      kind: grant.client.kind,
      scopes: [],
      approved_at: grant.createdAt,
    };
    app.scopes = [...new Set([...app.scopes, ...grant.scopes])];
    apps.set(grant.client.id, app);
  }
  return [...apps.values()];
};
