/**
 * Every timed or queued transition the sweep runs, each with its own cadence; each is idempotent
 * and safe on several instances. They run in separate loops (sweep.ts), so a slow one (email to a
 * stalled SMTP server) never delays checkout expiry or payment settlement.
 */
import type { Clock } from "../../platform/clock";
import type { Db } from "../../platform/db";
import { deliverDueEmails } from "../../platform/mail/sender";
import { purgeExpiredRecords } from "../../platform/jobs/purge";
import { expireDueCheckouts } from "../../checkout";
import { settlePayments } from "../../checkout";
import { settleOpenIntents } from "../../checkout";
import { paymentProvider } from "../../payments";
import { chargeDuePurchases } from "../../purchases";
import { reconcilePurchases } from "../../purchases";
import { processPriceChanges } from "../../price-changes";
import { deliverDueWebhooks } from "../../partners";
import { expireDueWatches, resumeExecutingWatches } from "../../price-watches";
import { settleStoreShares } from "../../payouts";
import { runSearchWatchWork } from "../../search-watches";
import { retryPendingRefunds } from "../../refunds";
import { reconcilePastDays } from "../../reconciliation";

export type DueWork = {
  name: string;
  intervalMs: number;
  /** `signal` aborts when the sweep stops: a task holding leases takes no new item and releases the ones it has not started. */
  run: (options: { db: Db; now: Date; clock: Clock; signal: AbortSignal }) => Promise<unknown>;
  /**
   * A task this one gives way to: while that task is busy on this instance (a run in progress, or
   * its last run said more is due), this one runs at its interval even when it says more.
   */
  givesWayTo?: string;
};

export const dueWork: DueWork[] = [
  // A full outbox is sent batch after batch, except while price changes are being processed: a
  // sale's purchases and notifications come first, and its emails (tens of thousands, about 3 ms of
  // this thread each to render and record) follow once it is settled (bench: watches).
  {
    name: "deliver-emails",
    intervalMs: 1_000,
    run: ({ db, now, signal }) => deliverDueEmails({ db, now, signal }),
    givesWayTo: "process-price-changes",
  },
  {
    name: "purge-expired-records",
    intervalMs: 10 * 60_000,
    run: ({ db, now }) => purgeExpiredRecords({ db, now }),
  },
  {
    name: "expire-checkouts",
    intervalMs: 1_000,
    run: ({ db, now }) => expireDueCheckouts(db, { now }),
  },
  { name: "settle-payments", intervalMs: 5_000, run: ({ db, now }) => settlePayments({ db, now }) },
  // Payment Element intents (and authentication steps) the person may have finished with neither a return nor a webhook.
  {
    name: "settle-open-intents",
    intervalMs: 15_000,
    run: ({ db, now }) => settleOpenIntents({ db, now }),
  },
  {
    name: "charge-purchases",
    intervalMs: 5_000,
    run: ({ db, now }) => chargeDuePurchases(db, { now, provider: paymentProvider() }),
  },
  // Price changes recorded while no instance (or no Inngest) acted on them, and any the function missed.
  {
    name: "process-price-changes",
    intervalMs: 1_000,
    run: ({ db, clock, signal }) =>
      processPriceChanges(db, { now: () => clock.now(), maxEvents: 500, signal }),
  },
  {
    name: "expire-price-watches",
    intervalMs: 1_000,
    run: ({ db, now }) => expireDueWatches(db, { now }),
  },
  {
    name: "resume-price-watches",
    intervalMs: 15_000,
    run: ({ db, now }) => resumeExecutingWatches(db, { now }),
  },
  // Search watches: digests whose hour is up, expiry, buying watches left executing.
  {
    name: "search-watches",
    intervalMs: 5_000,
    run: ({ db, now }) => runSearchWatchWork(db, { now }),
  },
  // Short: a webhook's delay from the change to the receiver is mostly this wait (bench: webhooks).
  {
    name: "deliver-webhooks",
    intervalMs: 200,
    run: ({ db, now, signal }) => deliverDueWebhooks({ db, now, signal }),
  },
  // Each captured order's ledger row, then its store's transfer (docs/adr/0106).
  {
    name: "settle-store-shares",
    intervalMs: 5_000,
    run: ({ db, now }) => settleStoreShares(db, { now, provider: paymentProvider() }),
  },
  // Refunds the processor did not answer, or a crash left pending: asked again with their own key.
  {
    name: "retry-refunds",
    intervalMs: 15_000,
    run: ({ db, now }) => retryPendingRefunds(db, { now, provider: paymentProvider() }),
  },
  // Yesterday's (and any missed day's) reconciliation with the processor, once the day is over.
  {
    name: "reconcile-days",
    intervalMs: 10 * 60_000,
    run: ({ db, now }) => reconcilePastDays(db, { now, provider: paymentProvider() }),
  },
  {
    name: "reconcile-purchases",
    intervalMs: 15_000,
    run: ({ db, now }) => reconcilePurchases(db, { now, provider: paymentProvider() }),
  },
];
