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
import type { Db } from "../../platform/db";
import { env } from "../../platform/env";
import { enqueueEmail } from "../../platform/mail/outbox";
import type { Tx } from "../../platform/db";
import { currentDestinationRules, type DestinationRules } from "./destination";
import { postWebhook, type AttemptResult } from "./post-webhook";
import { nextAttemptAt, shouldDisable } from "./retry-schedule";
import { liveSecrets, signedHeaders } from "./signing";

/** Longer than an attempt's 10 s, so a claimed delivery is not claimed again while it runs. */
const leaseMs = 60_000;

type Claimed = {
  id: string;
  attempts: number;
  eventId: string;
  eventCreatedAt: Date;
  clientId: string;
  personId: string | null;
  payload: unknown;
  endpointId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
};

/**
 * Due deliveries, round-robin per client: every client's oldest due one first, then every client's
 * second, and so on, at most `perClient` of one client a round. One client's backlog (thousands of
 * test events to a dead URL, each holding an attempt for up to 10 s) thus never fills a round, and
 * another partner's webhook goes out in the next one. Ranking reads every due row (the
 * status/next_attempt_at index); due rows are few next to the table (failures back off).
 */
const claim = (db: Db, now: Date, options: { limit: number; perClient: number }) => db.$queryRaw<
  Claimed[]
>`
  WITH ranked AS (
    SELECT d.id, ev.seq, row_number() OVER (PARTITION BY ev.client_id ORDER BY d.next_attempt_at, ev.seq) AS turn
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled' AND e.deleted_at IS NULL
    JOIN webhook_events ev ON ev.id = d.event_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}),
  picked AS (SELECT id, turn, seq FROM ranked WHERE turn <= ${options.perClient} ORDER BY turn, seq LIMIT ${options.limit}),
  due AS (
    SELECT d.id, picked.turn FROM webhook_deliveries d JOIN picked ON picked.id = d.id
    WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} FOR UPDATE OF d SKIP LOCKED),
  claimed AS (
    UPDATE webhook_deliveries d SET next_attempt_at = ${new Date(now.getTime() + leaseMs)}, attempts = d.attempts + 1, last_attempt_at = ${now}
    FROM due WHERE d.id = due.id RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, due.turn)
  SELECT c.id, c.attempts, c.event_id AS "eventId", ev.created_at AS "eventCreatedAt", ev.client_id AS "clientId", ev.person_id AS "personId",
    ev.payload, c.endpoint_id AS "endpointId", e.url, e.secret, e.previous_secret AS "previousSecret", e.previous_secret_until AS "previousSecretUntil"
  FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id
  ORDER BY c.turn, ev.seq`;

/** A linked person's object reaches the client only while the person's grant stands. */
const isStillLinked = async (db: Db, delivery: Claimed, now: Date) =>
  !delivery.personId ||
  (await db.oAuthGrant.count({
    where: {
      clientId: delivery.clientId,
      personId: delivery.personId,
      revokedAt: null,
      expiresAt: { gt: now },
    },
  })) > 0;

const recordSuccess = async (
  db: Db,
  delivery: Claimed,
  result: AttemptResult & { ok: true },
  now: Date,
) => {
  await db.webhookDelivery.update({
    where: { id: delivery.id },
    data: { status: "delivered", responseStatus: result.status, deliveredAt: now, lastError: null },
  });
  await db.webhookEndpoint.updateMany({
    where: { id: delivery.endpointId, failingSince: { not: null } },
    data: { failingSince: null },
  });
};

const recordFailure = (
  db: Db,
  delivery: Claimed,
  result: AttemptResult & { ok: false },
  now: Date,
) => {
  // A partner's receiver failing is not our fault: one line at info, with the detail the partner is not shown.
  console.info(
    `[webhooks] delivery ${delivery.id} to endpoint ${delivery.endpointId} failed: ${result.detail}`,
  );
  return db.$transaction(async (tx) => {
    const next = nextAttemptAt({
      failedAttempts: delivery.attempts,
      now,
      eventCreatedAt: delivery.eventCreatedAt,
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        status: next ? "pending" : "failed",
        nextAttemptAt: next ?? now,
        responseStatus: result.status,
        lastError: result.error,
      },
    });
    const [endpoint] = await tx.$queryRaw<{ failingSince: Date }[]>`
      UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${now}) WHERE id = ${delivery.endpointId} RETURNING failing_since AS "failingSince"`;
    if (!endpoint || !shouldDisable(endpoint.failingSince, now)) return;
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: delivery.endpointId, status: "enabled" },
      data: { status: "disabled", disabledAt: now, disabledReason: "failing_for_5_days" },
    });
    if (count === 1)
      await emailOwner(tx, {
        endpointId: delivery.endpointId,
        url: delivery.url,
        failingSince: endpoint.failingSince,
        lastError: result.error,
      });
  });
};

/** The disabled-endpoint email, to the client's contact address or else its owner's. */
const emailOwner = async (
  tx: Tx,
  options: { endpointId: string; url: string; failingSince: Date; lastError: string },
) => {
  const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({
    where: { id: options.endpointId },
    select: { clientId: true },
  });
  const client = await tx.apiClient.findUnique({
    where: { id: endpoint.clientId },
    select: { name: true, contactEmail: true, owner: { select: { email: true } } },
  });
  const to = client?.contactEmail ?? client?.owner?.email;
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

/** Runs `work` over `items` with at most `limit` at a time. */
const eachLimited = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
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
    await db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "dropped", lastError: "the person disconnected this app" },
    });
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
}) => {
  const { db, now } = options;
  const rules = options.rules ?? currentDestinationRules();
  const claimed = await claim(db, now, {
    limit: options.limit ?? 200,
    perClient: options.perClient ?? 20,
  });
  const counts = { delivered: 0, failed: 0, dropped: 0 };
  await eachLimited(claimed, options.concurrency ?? 32, async (delivery) => {
    counts[await attempt({ db, delivery, now, rules })]++;
  });
  return { ...counts, more: claimed.length > 0 };
};
