/**
 * Acts on recorded price changes (price_change_events): every registered handler (handlers.ts) runs
 * for each event, then the event is marked processed. Claiming is a lease taken with
 * `FOR UPDATE SKIP LOCKED`: two instances (or the sweep and the Inngest function) never hold one
 * event at once, and an event whose holder died is taken over when its lease ends. An event is
 * unprocessed until every handler has succeeded, so a process that was down acts on the changes
 * it missed when it comes back. Handlers must be idempotent (a failed event runs again whole) and
 * must read live state rather than trust the event's prices (events of one item may be handled out
 * of order by two instances).
 */
import { type Db, poolSize } from "../platform/db";
import { poolSql } from "../platform/sql";
import { priceChangeHandlers } from "./handlers";
import {
  claimPriceChangeEvents,
  failPriceChangeEvent,
  finishPriceChangeEvent,
  releasePriceChangeEvents,
  type PriceChangeHandler,
} from "../catalogue";
import { logger } from "../platform/observability/log";

/** How long a claim holds an event before another instance may take it over. */
export const priceChangeLeaseMs = 5 * 60_000;
/** Wait after a failed attempt before the event is tried again, growing with attempts (capped). */
const retryDelayMs = (attempts: number) =>
  Math.min(15 * 60_000, 5_000 * 2 ** Math.min(attempts, 10));
/**
 * Events handled side by side within one run: as many as the pool has connections (10 by default).
 * A purchase spends most of its time waiting on round trips and on the person's lock, so a sale goes
 * as fast as evaluations overlap (bench: 8 side by side took 76 s, 16 took 65 s); one connection each
 * at a time keeps them from queueing for the pool, whose wait ends in an error after 2 s.
 */
const concurrency = () => Math.max(4, poolSize());

/** Claims up to `limit` due events (all of `ids` when given, if still unprocessed and unclaimed). */
const claimPriceChanges = (
  db: Db,
  options: { now: Date; limit: number; ids?: readonly number[] },
) =>
  claimPriceChangeEvents(db, {
    ...options,
    claimedUntil: new Date(options.now.getTime() + priceChangeLeaseMs),
  });

const finish = async (
  event: { id: number; attempts: number; claimedUntil: Date },
  now: Date,
  error?: unknown,
) => {
  // Only the holder of this lease records the result (a takeover after a very slow run does its own).
  // On the pool (server/platform/sql.ts): a sale finishes thousands of events.
  if (error === undefined) {
    await finishPriceChangeEvent(poolSql, event, now);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    await failPriceChangeEvent(poolSql, event, {
      retryAt: new Date(now.getTime() + retryDelayMs(event.attempts)),
      message: message.slice(0, 1000),
    });
  }
};

/**
 * Claims and handles due events until none is left (or `maxEvents` were claimed); returns how many
 * were processed and failed, and `more` when it stopped at `maxEvents` with events possibly left (the
 * sweep then runs it again at once). `ids` limits it to those events (the Inngest function);
 * `handlers` replaces the registry (tests of the processor itself). The evaluations run side by
 * side without a barrier: a worker that finds the claimed events all taken claims the next batch
 * itself, so one slow event (an item whose watchers buy one after another) never idles the rest.
 */
export const processPriceChanges = async (
  db: Db,
  options: {
    now: () => Date;
    ids?: readonly number[];
    batch?: number;
    maxEvents?: number;
    handlers?: readonly PriceChangeHandler[];
    /** Aborted when the sweep stops: events under way finish, no more are claimed, the claimed rest is released. */
    signal?: AbortSignal;
  },
) => {
  let processed = 0;
  let failed = 0;
  let claimedCount = 0;
  let isDrained = false;
  const maxEvents = options.maxEvents ?? 10_000;
  const queue: Awaited<ReturnType<typeof claimPriceChanges>> = [];
  // One claim at a time: workers that find the queue empty together wait for the same claim.
  let claiming: Promise<void> | undefined;
  let claimError: unknown;
  const claimMore = () =>
    (claiming ??= (async () => {
      const limit = options.signal?.aborted
        ? 0
        : Math.min(options.batch ?? 100, maxEvents - claimedCount);
      const claimed =
        limit > 0
          ? await claimPriceChanges(db, { now: options.now(), limit, ids: options.ids })
          : [];
      claimedCount += claimed.length;
      if (claimed.length === 0) isDrained = true;
      queue.push(...claimed);
    })()
      // A failed claim ends the run once the events in hand are done (it is thrown then).
      .catch((error: unknown) => {
        claimError = error;
        isDrained = true;
      })
      .finally(() => (claiming = undefined)));
  const worker = async () => {
    while (!options.signal?.aborted) {
      const event = queue.shift();
      if (!event) {
        if (isDrained) return;
        await claimMore();
        continue;
      }
      try {
        for (const handler of options.handlers ?? priceChangeHandlers)
          await handler.handle(db, event, { now: options.now() });
        await finish(event, options.now());
        processed++;
      } catch (error) {
        logger.error({ err: error, price_change_id: event.id }, "price change event failed");
        await finish(event, options.now(), error);
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency() }, worker));
  // Left only when the signal aborted: another instance (or this one's next start) takes them at once.
  await releasePriceChangeEvents(poolSql, queue.splice(0));
  if (claimError) throw claimError;
  return { processed, failed, more: claimedCount >= maxEvents };
};
