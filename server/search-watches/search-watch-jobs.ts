/**
 * The timed and recovery work of search watches, run by the due-work sweep
 * (server/edges/jobs/due-work.ts): digests whose hour is up, expiry, and buying watches left
 * executing. Each step is idempotent and safe on several instances: every move is a guarded
 * conditional update, an email turn is one conditional update, and a stale executing watch is
 * taken with a lease (claimed_at moved forward).
 */
import { findPurchaseOfQuote } from "../purchases";
import type { Db } from "../platform/db";
import { poolSql } from "../platform/sql";
import { buyClaimed, recordPurchase } from "./buy-match";
import { watchIndex } from "./matcher";
import { sendDueDigests } from "./notify-matches";
import { executingRetryMs } from "./states";
import { findDueExpiries, findStaleExecuting, leaseExecuting, moveSearchWatch } from "./store";

/** Expires active watches whose expires_at has passed; returns how many ended. */
export const expireDueSearchWatches = async (options: { now: Date; batch?: number }) => {
  const batch = options.batch ?? 200;
  let ended = 0;
  for (;;) {
    const due = await findDueExpiries(poolSql, options.now, batch);
    for (const id of due) {
      const moved = await moveSearchWatch(poolSql, { id, event: "expire", now: options.now });
      if (moved) {
        watchIndex.remove(id);
        ended++;
      }
    }
    if (due.length < batch) return ended;
  }
};

/** Finishes buying watches left executing: records the purchase that exists, or replays it with the same key. */
export const resumeExecutingSearchWatches = async (db: Db, options: { now: Date }) => {
  const before = new Date(options.now.getTime() - executingRetryMs);
  for (const watch of await findStaleExecuting(poolSql, before)) {
    if (!(await leaseExecuting(poolSql, watch.id, before, options.now))) continue;
    const purchase =
      watch.purchaseId ??
      (watch.quoteId ? await findPurchaseOfQuote(poolSql, watch.quoteId) : undefined);
    if (purchase) await recordPurchase(watch.id, purchase, options.now);
    else await buyClaimed(db, watch.id, options.now);
  }
};

/** One sweep of everything timed about search watches; the digests sent and the watches expired (the sweep's log line). */
export const runSearchWatchWork = async (db: Db, options: { now: Date }) => {
  const digests = await sendDueDigests(options);
  const expired = await expireDueSearchWatches(options);
  await resumeExecutingSearchWatches(db, options);
  return { digests, expired };
};
