/**
 * The webhook sender: claims due deliveries with a lease (FOR UPDATE SKIP LOCKED, so several
 * instances share the work and a crashed one's claims come back when the lease ends), signs and
 * posts each, and records the outcome: delivered; or retried with backoff until the event is 3
 * days old (then failed); and an endpoint whose attempts have all failed for 5 days is disabled and
 * its owner emailed (outbox, same transaction). Delivery is at least once: an attempt whose answer
 * is lost (timeout, crash before recording) is sent again with the same webhook-id.
 *
 * Order: due deliveries are claimed oldest event first within a client (round-robin between
 * clients, see claim), but attempts run concurrently and retries come later, so receivers must not
 * rely on arrival order (docs/adr/0082-webhook-signing-and-delivery.md).
 */
import { findClientContact } from "../../auth";
import { findEmail } from "../../accounts";
import { type Db, inTransaction, type Tx } from "../../platform/db";
import { env } from "../../platform/env";
import { logger } from "../../platform/observability/log";
import { count, observe, secondsSince } from "../../platform/observability/metrics";
import { enqueueEmail } from "../../platform/mail/outbox";
import {
  type ClaimedDelivery as Claimed,
  claimDueDeliveries,
  disableFailingEndpoint,
  dropDelivery,
  isPersonLinked,
  markEndpointFailing,
  readEndpointClient,
  recordDelivered,
  recordFailedAttempt,
  releaseDeliveries,
} from "../store";
import { currentDestinationRules, type DestinationRules } from "./destination";
import { postWebhook, type AttemptResult } from "./post-webhook";
import { nextAttemptAt, shouldDisable } from "./retry-schedule";
import { liveSecrets, signedHeaders } from "./signing";

/** Longer than an attempt's 10 s, so a claimed delivery is not claimed again while it runs. */
const leaseMs = 60_000;

/** A linked person's object reaches the client only while the person's grant stands. */
const isStillLinked = async (db: Db, delivery: Claimed, now: Date) =>
  !delivery.personId ||
  (await isPersonLinked(db, { clientId: delivery.clientId, personId: delivery.personId, now }));

const recordSuccess = (
  db: Db,
  delivery: Claimed,
  result: AttemptResult & { ok: true },
  now: Date,
) =>
  recordDelivered(db, {
    id: delivery.id,
    endpointId: delivery.endpointId,
    responseStatus: result.status,
    now,
  });

const recordFailure = (
  db: Db,
  delivery: Claimed,
  result: AttemptResult & { ok: false },
  now: Date,
) => {
  // A partner's receiver failing is not our fault: one line at info, with the detail the partner is not shown.
  logger.info(
    { delivery_id: delivery.id, endpoint_id: delivery.endpointId, detail: result.detail },
    "webhook delivery failed",
  );
  return inTransaction(db, async (tx) => {
    const next = nextAttemptAt({
      failedAttempts: delivery.attempts,
      now,
      eventCreatedAt: delivery.eventCreatedAt,
    });
    await recordFailedAttempt(tx, {
      id: delivery.id,
      nextAttemptAt: next,
      responseStatus: result.status,
      error: result.error,
      now,
    });
    const failingSince = await markEndpointFailing(tx, delivery.endpointId, now);
    if (!failingSince || !shouldDisable(failingSince, now)) return;
    if (await disableFailingEndpoint(tx, delivery.endpointId, now))
      await emailOwner(tx, {
        endpointId: delivery.endpointId,
        url: delivery.url,
        failingSince,
        lastError: result.error,
      });
  });
};

/** The disabled-endpoint email, to the client's contact address or else its owner's. */
const emailOwner = async (
  tx: Tx,
  options: { endpointId: string; url: string; failingSince: Date; lastError: string },
) => {
  const client = await findClientContact(tx, await readEndpointClient(tx, options.endpointId));
  const to =
    client?.contactEmail ?? (client?.ownerId ? await findEmail(tx, client.ownerId) : undefined);
  if (!client || !to) return;
  await enqueueEmail(tx, {
    to,
    template: "webhook-endpoint-disabled",
    props: {
      clientName: client.name,
      url: options.url,
      failingSince: options.failingSince.toISOString(),
      lastError: options.lastError,
      portalUrl: `${env().PUBLIC_URL}/developers`,
    },
    dedupeKey: `webhook-endpoint-disabled:${options.endpointId}:${options.failingSince.toISOString()}`,
  });
};

/** Runs `work` over `items` with at most `limit` at a time, until `signal` aborts; returns the items not started. */
const eachLimited = async <T>(
  items: readonly T[],
  options: { limit: number; signal?: AbortSignal },
  work: (item: T) => Promise<void>,
) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(options.limit, items.length) }, async () => {
      while (next < items.length && !options.signal?.aborted) await work(items[next++]);
    }),
  );
  return items.slice(next);
};

/** One attempt of one claimed delivery, recorded. */
const attempt = async (options: {
  db: Db;
  delivery: Claimed;
  now: Date;
  rules: DestinationRules;
}) => {
  const { db, delivery, now } = options;
  if (!(await isStillLinked(db, delivery, now))) {
    await dropDelivery(db, delivery.id, "the person disconnected this app");
    count("shopping_webhook_deliveries_total", { result: "dropped" });
    return "dropped" as const;
  }
  const body = JSON.stringify(delivery.payload);
  // The signature's timestamp is the real wall clock: the receiver checks it against its own.
  const headers = signedHeaders({
    id: delivery.eventId,
    body,
    secrets: liveSecrets(delivery, now),
    timestamp: new Date(),
  });
  const result = await postWebhook({ url: delivery.url, body, headers, rules: options.rules });
  if (result.ok) await recordSuccess(db, delivery, result, now);
  else await recordFailure(db, delivery, result, now);
  count("shopping_webhook_deliveries_total", { result: result.ok ? "delivered" : "failed" });
  if (result.ok)
    observe("shopping_webhook_delivery_lag_seconds", secondsSince(delivery.eventCreatedAt));
  return result.ok ? ("delivered" as const) : ("failed" as const);
};

/**
 * Sends a round of due deliveries (at most `limit`, at most `perClient` of one client); returns the
 * counts of this round, and `more` when it found work (the sweep then runs the next round at once,
 * so the per-client cap does not slow a lone busy client down).
 */
export const deliverDueWebhooks = async (options: {
  db: Db;
  now: Date;
  limit?: number;
  perClient?: number;
  concurrency?: number;
  rules?: DestinationRules;
  /** Aborted when the sweep stops: attempts under way finish, the deliveries not started are released. */
  signal?: AbortSignal;
}) => {
  const { db, now } = options;
  const rules = options.rules ?? currentDestinationRules();
  const claimed = await claimDueDeliveries(db, now, {
    limit: options.limit ?? 200,
    perClient: options.perClient ?? 20,
    leaseMs,
  });
  const counts = { delivered: 0, failed: 0, dropped: 0 };
  const unstarted = await eachLimited(
    claimed,
    { limit: options.concurrency ?? 32, signal: options.signal },
    async (delivery) => {
      counts[await attempt({ db, delivery, now, rules })]++;
    },
  );
  if (unstarted.length > 0)
    await releaseDeliveries(db, {
      ids: unstarted.map((delivery) => delivery.id),
      leaseEnd: new Date(now.getTime() + leaseMs),
      now,
    });
  return { ...counts, released: unstarted.length, more: claimed.length > 0 };
};
