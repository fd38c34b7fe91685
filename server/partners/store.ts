/**
 * The queries of partners' tables: `webhook_endpoints`, `webhook_events` and
 * `webhook_deliveries`. Recording an event is raw SQL, so every state's writer records it in its
 * own transaction, Prisma's or `pg`'s (docs/adr/0014-raw-sql-on-hot-paths.md), and the recipients
 * fragment goes into the RETURNING of a move, costing no statement when nobody listens
 * (docs/adr/0074-sale-path-performance.md: 16,000 statements fewer in the sale). The sender's claim
 * is one raw statement (ranking, FOR UPDATE SKIP LOCKED and the lease). The portal's and the
 * sender's other writes are Prisma.
 *
 * Two reads of `oauth_grants` (oauth's table; oauth sits above partners, so they cannot go through
 * its index): the recipients fragment and `isPersonLinked` send a linked person's objects only
 * while their grant to the client stands.
 */
import { randomId } from "../core/ids";
import { Prisma } from "../generated/prisma/client";
import type { Db, Tx } from "../platform/db";
import type { Sql } from "../platform/sql";
import { testEventType } from "./webhooks/event-types";

type Client = Db | Tx;

/** The channel the sender listens on; NOTIFY inside the transaction is delivered at commit. */
const webhookChannel = "webhook_events";

// Recording events

export type Recipients = {
  type: string;
  now: Date;
  endpointId?: string;
  /** The owner client and person as values, or as SQL expressions (columns of the row a move's statement returns). */
  clientId: string | Prisma.Sql;
  personId: string | null | Prisma.Sql;
};

/**
 * SQL of the ids (text[], empty when none) of the endpoints that receive an event: the owner
 * client's, subscribed, enabled, and for a person's object only while linked. A state's writer puts
 * it in the RETURNING of its move, so the event costs no statement of its own when nobody listens.
 */
export const recipientsSql = ({ type, clientId, personId, now, endpointId }: Recipients) =>
  Prisma.sql`
  (SELECT coalesce(array_agg(e.id), '{}') FROM webhook_endpoints e
    WHERE e.client_id = ${clientId} AND e.status = 'enabled' AND e.deleted_at IS NULL
      AND (e.person_id IS NULL OR e.person_id = ${personId})
      AND (${endpointId ?? null}::text IS NULL OR e.id = ${endpointId ?? null})
      AND (${type} = ${testEventType} OR ${type} = ANY(e.event_types))
      AND (${personId}::text IS NULL OR EXISTS (
        SELECT 1 FROM oauth_grants g WHERE g.client_id = e.client_id AND g.person_id = ${personId}
          AND g.revoked_at IS NULL AND g.expires_at > ${now})))`;

/** The ids of the endpoints that receive an event (`recipientsSql` as a statement of its own). */
export const findRecipients = async (sql: Sql, recipients: Recipients) =>
  (await sql.$queryRaw<{ ids: string[] }[]>`SELECT ${recipientsSql(recipients)} AS ids`)[0].ids;

/** Writes an event and one pending delivery per endpoint, and wakes the sender at commit. */
export const insertEvent = async (
  sql: Sql,
  event: {
    id: string;
    clientId: string;
    personId: string | null;
    type: string;
    objectId: string;
    payload: unknown;
    endpoints: string[];
    now: Date;
  },
) => {
  await sql.$executeRaw`
    INSERT INTO webhook_events (id, client_id, person_id, type, object_id, payload, created_at)
    VALUES (${event.id}, ${event.clientId}, ${event.personId}, ${event.type}, ${event.objectId}, ${JSON.stringify(event.payload)}::jsonb, ${event.now})`;
  await sql.$executeRaw`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at, created_at)
    SELECT delivery.id, ${event.id}, delivery.endpoint_id, ${event.now}, ${event.now}
    FROM unnest(${event.endpoints.map(() => randomId("whd_"))}::text[], ${event.endpoints}::text[]) AS delivery(id, endpoint_id)`;
  await sql.$executeRaw`SELECT pg_notify(${webhookChannel}, '')`;
};

// The sender

/** A delivery claimed for an attempt, with its event and endpoint. */
export type ClaimedDelivery = {
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
 * Claims due deliveries for `leaseMs`, round-robin per client: every client's oldest due one
 * first, then every client's second, and so on, at most `perClient` of one client a round. One
 * client's backlog (thousands of test events to a dead URL, each holding an attempt for up to 10 s)
 * thus never fills a round, and another partner's webhook goes out in the next one. Ranking reads
 * every due row (the status/next_attempt_at index); due rows are few next to the table (failures
 * back off). FOR UPDATE SKIP LOCKED: several instances share the work.
 */
export const claimDueDeliveries = (
  db: Client,
  now: Date,
  options: { limit: number; perClient: number; leaseMs: number },
) => db.$queryRaw<ClaimedDelivery[]>`
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
    UPDATE webhook_deliveries d SET next_attempt_at = ${new Date(now.getTime() + options.leaseMs)}, attempts = d.attempts + 1, last_attempt_at = ${now}
    FROM due WHERE d.id = due.id RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, due.turn)
  SELECT c.id, c.attempts, c.event_id AS "eventId", ev.created_at AS "eventCreatedAt", ev.client_id AS "clientId", ev.person_id AS "personId",
    ev.payload, c.endpoint_id AS "endpointId", e.url, e.secret, e.previous_secret AS "previousSecret", e.previous_secret_until AS "previousSecretUntil"
  FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id
  ORDER BY c.turn, ev.seq`;

/** Hands back claimed deliveries not attempted (the sweep stopped): due again at once, for any instance, the claim not counted. */
export const releaseDeliveries = (
  db: Client,
  options: { ids: string[]; leaseEnd: Date; now: Date },
) => db.$executeRaw`
  UPDATE webhook_deliveries SET next_attempt_at = ${options.now}, attempts = attempts - 1
  WHERE id = ANY(${options.ids}::text[]) AND status = 'pending' AND next_attempt_at = ${options.leaseEnd}`;

/** Whether the person's grant to the client stands (reads oauth's `oauth_grants`, see above). */
export const isPersonLinked = async (
  db: Client,
  options: { clientId: string; personId: string; now: Date },
) =>
  (await db.oAuthGrant.count({
    where: {
      clientId: options.clientId,
      personId: options.personId,
      revokedAt: null,
      expiresAt: { gt: options.now },
    },
  })) > 0;

/** A delivery that will not be attempted (its person disconnected the app). */
export const dropDelivery = (db: Client, id: string, reason: string) =>
  db.webhookDelivery.update({ where: { id }, data: { status: "dropped", lastError: reason } });

/** The receiver acknowledged: the delivery is done, and its endpoint is no longer failing. */
export const recordDelivered = async (
  db: Client,
  options: { id: string; endpointId: string; responseStatus: number; now: Date },
) => {
  await db.webhookDelivery.update({
    where: { id: options.id },
    data: {
      status: "delivered",
      responseStatus: options.responseStatus,
      deliveredAt: options.now,
      lastError: null,
    },
  });
  await db.webhookEndpoint.updateMany({
    where: { id: options.endpointId, failingSince: { not: null } },
    data: { failingSince: null },
  });
};

/** A failed attempt: tried again at `nextAttemptAt`, or failed for good when that is null. */
export const recordFailedAttempt = (
  db: Client,
  options: {
    id: string;
    nextAttemptAt: Date | null;
    responseStatus: number | null;
    error: string;
    now: Date;
  },
) =>
  db.webhookDelivery.update({
    where: { id: options.id },
    data: {
      status: options.nextAttemptAt ? "pending" : "failed",
      nextAttemptAt: options.nextAttemptAt ?? options.now,
      responseStatus: options.responseStatus,
      lastError: options.error,
    },
  });

/** Marks the endpoint failing since now unless it already was; since when it fails (undefined: no such endpoint). */
export const markEndpointFailing = async (db: Client, endpointId: string, now: Date) =>
  (
    await db.$queryRaw<{ failingSince: Date }[]>`
      UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${now}) WHERE id = ${endpointId} RETURNING failing_since AS "failingSince"`
  )[0]?.failingSince;

/** Disables an enabled endpoint that has failed too long; whether it changed. */
export const disableFailingEndpoint = async (db: Client, endpointId: string, now: Date) =>
  (
    await db.webhookEndpoint.updateMany({
      where: { id: endpointId, status: "enabled" },
      data: { status: "disabled", disabledAt: now, disabledReason: "failing_for_5_days" },
    })
  ).count === 1;

/** The client an endpoint belongs to; throws when unknown. */
export const readEndpointClient = async (db: Client, endpointId: string) =>
  (
    await db.webhookEndpoint.findUniqueOrThrow({
      where: { id: endpointId },
      select: { clientId: true },
    })
  ).clientId;

// Endpoints of one owner

export type EndpointOwner = { clientId: string; personId: string | null };

const endpointSelect = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  disabledReason: true,
  previousSecretUntil: true,
  createdAt: true,
} as const;

export type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: "enabled" | "disabled";
  disabledReason: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
};

const ownerWhere = (owner: EndpointOwner) => ({
  clientId: owner.clientId,
  personId: owner.personId,
  deletedAt: null,
});

/** The owner's endpoint; null when unknown, deleted or another owner's. */
export const findOwnEndpoint = (db: Client, owner: EndpointOwner, id: string) =>
  db.webhookEndpoint.findFirst({ where: { id, ...ownerWhere(owner) }, select: endpointSelect });

/** The owner's endpoints, oldest first. */
export const listOwnEndpoints = (db: Client, owner: EndpointOwner) =>
  db.webhookEndpoint.findMany({
    where: ownerWhere(owner),
    select: endpointSelect,
    orderBy: { createdAt: "asc" },
  });

/**
 * Registers an endpoint unless the owner has `maxPerOwner` already (undefined then). Registrations
 * of one owner are serialised by an advisory lock, so the cap holds under concurrent requests.
 */
export const insertEndpointUnderCap = (
  db: Db,
  owner: EndpointOwner,
  endpoint: {
    url: string;
    eventTypes: string[];
    description: string | null;
    secret: string;
    maxPerOwner: number;
    now: Date;
  },
): Promise<EndpointRow | undefined> =>
  db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${owner.clientId}:${owner.personId ?? ""}`}))`;
    const count = await tx.webhookEndpoint.count({ where: ownerWhere(owner) });
    if (count >= endpoint.maxPerOwner) return undefined;
    return tx.webhookEndpoint.create({
      data: {
        id: randomId("we_"),
        ...owner,
        url: endpoint.url,
        description: endpoint.description,
        eventTypes: endpoint.eventTypes,
        secret: endpoint.secret,
        createdAt: endpoint.now,
      },
      select: endpointSelect,
    });
  });

/** Deletes an endpoint and drops its pending deliveries, together. */
export const deleteEndpointRow = (db: Db, id: string, now: Date) =>
  db.$transaction([
    db.webhookEndpoint.update({ where: { id }, data: { deletedAt: now } }),
    db.webhookDelivery.updateMany({
      where: { endpointId: id, status: "pending" },
      data: { status: "dropped", lastError: "endpoint deleted" },
    }),
  ]);

/** The endpoint's current signing secret; throws when unknown. */
export const readEndpointSecret = async (db: Client, id: string) =>
  (await db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { secret: true } })).secret;

/** A new signing secret; the previous one keeps signing until `previousUntil`. */
export const replaceEndpointSecret = (
  db: Client,
  options: { id: string; secret: string; previousSecret: string; previousUntil: Date },
) =>
  db.webhookEndpoint.update({
    where: { id: options.id },
    data: {
      secret: options.secret,
      previousSecret: options.previousSecret,
      previousSecretUntil: options.previousUntil,
    },
    select: endpointSelect,
  });

/** Enables the endpoint again, no longer failing. */
export const enableEndpointRow = (db: Client, id: string) =>
  db.webhookEndpoint.update({
    where: { id },
    data: { status: "enabled", disabledAt: null, disabledReason: null, failingSince: null },
    select: endpointSelect,
  });

/** The newest deliveries to an endpoint, with their events. */
export const listEndpointDeliveries = (db: Client, endpointId: string, limit: number) =>
  db.webhookDelivery.findMany({
    where: { endpointId },
    orderBy: { createdAt: "desc" },
    take: limit,
    select: {
      id: true,
      status: true,
      attempts: true,
      responseStatus: true,
      lastError: true,
      lastAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      nextAttemptAt: true,
      event: { select: { id: true, type: true, objectId: true } },
    },
  });

/** Sends a finished delivery again now, with a fresh retry window, and wakes the sender; false when there is no such finished delivery. */
export const requeueDelivery = async (
  db: Client,
  options: { endpointId: string; deliveryId: string; now: Date },
) => {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: options.deliveryId, endpointId: options.endpointId, status: { not: "pending" } },
    data: { status: "pending", nextAttemptAt: options.now, attempts: 0, lastError: null },
  });
  if (count === 0) return false;
  await db.$executeRaw`SELECT pg_notify('webhook_events', '')`;
  return true;
};
