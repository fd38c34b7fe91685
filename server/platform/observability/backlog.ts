/**
 * The work waiting across the cluster, for /metrics (server/edges/http/metrics-endpoint.ts): the
 * email outbox, the webhook deliveries due, and the oldest overdue timed transition of each kind,
 * read from PostgreSQL, so every instance shows the same numbers whichever instance does the work.
 * One read-only transaction of indexed reads (each on an index of status and due time, the same
 * conditions as the sweep's due-work queries) with a 1 s statement timeout, its answer kept 2 s: any
 * number of scrapers cost the database one such read every 2 s at most.
 */
import { rawPool } from "../db";
import { logger } from "./log";

const cacheMs = 2_000;
const timeoutMs = 1_000;

export type Backlog = {
  /** Emails that are not bulk (server/platform/mail/outbox.ts): sign-in links, purchases' copies, receipts. */
  outbox_depth: number;
  outbox_oldest_age: number | null;
  /** Bulk notifications (a sale's matches and alerts): sent after the rest, so they may wait longer. */
  outbox_bulk_depth: number;
  outbox_bulk_oldest_age: number | null;
  webhook_backlog: number;
  purchase_charge: number | null;
  checkout_expiry: number | null;
  watch_expiry: number | null;
  price_change: number | null;
};

export const dueTransitionKinds = [
  "purchase_charge",
  "checkout_expiry",
  "watch_expiry",
  "price_change",
] as const;

/**
 * The due-time columns each sweep task works from (the same conditions as their due-work queries;
 * each on an index of status and due time). Two statements in one message run as one implicit
 * transaction: the timeout is local to it, and a timed-out read leaves the pooled connection clean
 * (an explicit BEGIN would leave it inside an aborted transaction).
 */
const backlogSql = `
  SELECT set_config('statement_timeout', '${timeoutMs}', true);
  SELECT
    (SELECT count(*) FROM email_messages WHERE status = 'pending' AND NOT bulk)::int AS outbox_depth,
    (SELECT extract(epoch FROM now() - min(created_at)) FROM email_messages WHERE status = 'pending' AND NOT bulk)::float8 AS outbox_oldest_age,
    (SELECT count(*) FROM email_messages WHERE status = 'pending' AND bulk)::int AS outbox_bulk_depth,
    (SELECT extract(epoch FROM now() - min(created_at)) FROM email_messages WHERE status = 'pending' AND bulk)::float8 AS outbox_bulk_oldest_age,
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now())::int AS webhook_backlog,
    (SELECT extract(epoch FROM now() - min(charges_at)) FROM purchases WHERE status = 'held' AND charges_at <= now())::float8 AS purchase_charge,
    (SELECT extract(epoch FROM now() - min(expires_at)) FROM checkouts WHERE status = 'awaiting_payment' AND expires_at <= now())::float8 AS checkout_expiry,
    (SELECT extract(epoch FROM now() - min(expires_at)) FROM price_watches WHERE status = 'active' AND expires_at <= now())::float8 AS watch_expiry,
    (SELECT extract(epoch FROM now() - min(created_at)) FROM price_change_events WHERE processed_at IS NULL)::float8 AS price_change`;

let cached: { at: number; backlog: Promise<Backlog | undefined> } | undefined;

/** The backlog, read at most every 2 s; undefined when the database did not answer in time (the gauges then read NaN). */
export const readBacklog = () => {
  if (cached && Date.now() - cached.at < cacheMs) return cached.backlog;
  const backlog = rawPool()
    .query(backlogSql)
    .then((results) => {
      const rows = (results as unknown as { rows: Backlog[] }[])[1].rows;
      return rows[0];
    })
    .catch((error: unknown) => {
      logger.warn({ err: error }, "metrics: the backlog query failed");
      return undefined;
    });
  cached = { at: Date.now(), backlog };
  return backlog;
};
