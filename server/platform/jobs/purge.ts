/**
 * Keeps tables from growing forever (a due-work task, every 10 minutes; each delete is idempotent,
 * so several instances may run it). Retention, stated in docs/adr/0015-data-retention.md:
 * - OAuth grants that ended (revoked or expired) over 30 days ago, with their codes and tokens
 *   (cascade); codes used or expired over a day ago; refresh tokens a day after they expire (used
 *   ones stay until then: reuse detection needs them for the token's whole life);
 * - access tokens (client-credentials and linked) a day after they expire;
 * - idempotency records once their 24-hour replay window ends (expires_at);
 * - quotes expired over 7 days ago that no checkout or purchase references;
 * - sent emails, and failed ones (the sender gave up), 30 days after they were written;
 * - webhook events (with their deliveries) 30 days after they were recorded: past the 3-day retry
 *   window, kept a month for the portal's delivery list and replays;
 * - clients mirrored from a Client ID Metadata Document that nothing uses any more (no grant, token,
 *   purchase, watch or alert: their grants were purged above), a day after they were created; an
 *   operator-revoked one stays, so its revocation stands. Approving the app again mirrors it anew.
 * Deletes go in batches of 1,000 rows (at most 20 per table per run), so a big backlog never holds
 * locks long; the next run carries on.
 */
import type { Db } from "../db";
import { Prisma } from "../../generated/prisma/client";

const day = 86_400_000;
const batchSize = 1_000;
const maxBatches = 20;

/** Deletes the rows of `table` matching `where`, a batch at a time; returns how many went. */
const deleteInBatches = async (db: Db, table: string, where: Prisma.Sql) => {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await db.$executeRaw`
      DELETE FROM ${Prisma.raw(table)} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${Prisma.raw(table)} WHERE ${where} LIMIT ${batchSize}))`;
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
};

export const purgeExpiredRecords = async (options: { db: Db; now: Date }) => {
  const { db, now } = options;
  const dayAgo = new Date(now.getTime() - day);
  const weekAgo = new Date(now.getTime() - 7 * day);
  const monthAgo = new Date(now.getTime() - 30 * day);
  return {
    grants: await deleteInBatches(
      db,
      "oauth_grants",
      Prisma.sql`revoked_at < ${monthAgo} OR expires_at < ${monthAgo}`,
    ),
    codes: await deleteInBatches(
      db,
      "authorization_codes",
      Prisma.sql`expires_at < ${dayAgo} OR consumed_at < ${dayAgo}`,
    ),
    refreshTokens: await deleteInBatches(db, "refresh_tokens", Prisma.sql`expires_at < ${dayAgo}`),
    accessTokens: await deleteInBatches(db, "access_tokens", Prisma.sql`expires_at < ${dayAgo}`),
    idempotencyRecords: await deleteInBatches(
      db,
      "idempotency_records",
      Prisma.sql`expires_at < ${now}`,
    ),
    quotes: await deleteInBatches(
      db,
      "quotes",
      Prisma.sql`expires_at < ${weekAgo} AND NOT EXISTS (SELECT 1 FROM checkouts c WHERE c.quote_id = quotes.id) AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.quote_id = quotes.id)`,
    ),
    emails: await deleteInBatches(
      db,
      "email_messages",
      Prisma.sql`status IN ('sent', 'failed') AND created_at < ${monthAgo}`,
    ),
    metadataClients: await deleteInBatches(
      db,
      "api_clients",
      Prisma.sql`(metadata->>'client_id_metadata_document')::boolean IS TRUE AND revoked_at IS NULL AND created_at < ${dayAgo}
      AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = api_clients.id) AND NOT EXISTS (SELECT 1 FROM access_tokens t WHERE t.client_id = api_clients.id)
      AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.client_id = api_clients.id) AND NOT EXISTS (SELECT 1 FROM price_watches w WHERE w.client_id = api_clients.id)
      AND NOT EXISTS (SELECT 1 FROM price_alerts a WHERE a.client_id = api_clients.id)`,
    ),
    webhookEvents: await deleteInBatches(
      db,
      "webhook_events",
      Prisma.sql`created_at < ${monthAgo} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'pending')`,
    ),
  };
};
