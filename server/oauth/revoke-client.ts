/**
 * The operator revokes a client (`npm run ops -- client:revoke`): its secret and every token it
 * holds stop on the next request, and the price watches it set end (they can no longer buy),
 * each person emailed. Revoking a revoked client changes nothing.
 */
import { findClientRevocation, revokeClientRow, revokeTokensOfClient } from "../auth";
import { type Db, inTransaction } from "../platform/db";
import { endWatchesOutOfStanding, notifyWatchesEnded } from "../price-watches";

/** A client with many watchers: every watch ends in this one transaction. */
const revokeTimeoutMs = 120_000;

/** Revokes the client; undefined when there is no such client. */
export const revokeClient = async (db: Db, clientId: string, now: Date) => {
  const { changed, watches } = await inTransaction(
    db,
    async (tx) => {
      const changed = (await revokeClientRow(tx, clientId, now)) === 1;
      await revokeTokensOfClient(tx, clientId, now);
      return {
        changed,
        watches: changed ? await endWatchesOutOfStanding(tx, { clientId }, now) : [],
      };
    },
    { timeout: revokeTimeoutMs },
  );
  notifyWatchesEnded(watches);
  const client = await findClientRevocation(db, clientId);
  if (!client) return undefined;
  return {
    revokedAt: client.revokedAt ?? now,
    changed,
    priceWatchesEnded: watches.length,
  };
};
