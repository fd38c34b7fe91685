/**
 * The timed and recovery work of price watches, run by the sweep (server/edges/jobs/due-work.ts) and the
 * Inngest functions. Each step is idempotent and safe on several instances: every move is a
 * guarded conditional update (watch-writer.ts), so of two instances at one watch one moves it and
 * the other finds it moved; a stale executing watch is taken with a conditional lease update.
 */
import { findPurchaseOfQuote } from "../purchases";
import type { Db } from "../platform/db";
import { buyClaimed } from "./evaluate-watch";
import { expireWatch } from "./expire-watch";
import { recordPurchase } from "./record-watch-purchase";
import { expireDueGroups, settleUnsettledGroups } from "./groups/group-jobs";
import { findDueWatchIds, findStaleExecutingWatches, leaseExecutingWatch } from "./store/watches";

/** A watch left executing this long without an answer is picked up again (a crash, or the bank was slow). */
export const executingRetryMs = 60_000;

/** Expires active watches whose expires_at has passed, a batch at a time; returns how many ended. */
export const expireDueWatches = async (db: Db, options: { now: Date; batch?: number }) => {
  const batch = options.batch ?? 200;
  let ended = 0;
  for (;;) {
    const due = await findDueWatchIds(db, { now: options.now, batch });
    if (due.length === 0) return ended;
    for (const id of due) if (await expireWatch(id, options.now)) ended++;
    if (due.length < batch) return ended + (await expireDueGroups({ ...options, batch }));
  }
};

/**
 * Finishes watches left executing: one whose purchase is known records its state (the bank's late
 * answer, or a crash after the purchase); one without replays its purchase with the same key
 * (the purchase path answers the first result, or makes it if the crash came before).
 */
export const resumeExecutingWatches = async (db: Db, options: { now: Date }) => {
  const before = new Date(options.now.getTime() - executingRetryMs);
  const stale = await findStaleExecutingWatches(db, before);
  for (const watch of stale) {
    // Taken by this run only: moving claimed_at forward is the lease (a second instance skips it).
    const taken = await leaseExecutingWatch(db, { id: watch.id, before, now: options.now });
    if (!taken) continue;
    const purchase =
      watch.purchaseId ??
      (watch.quoteId ? await findPurchaseOfQuote(db, watch.quoteId) : undefined);
    if (purchase) await recordPurchase(watch.id, purchase, options.now);
    else await buyClaimed(db, watch.id, options);
  }
  // Any-of groups a crash left out of line with their alternatives.
  await settleUnsettledGroups({ now: options.now, before });
};
