/**
 * Webhook endpoints of one owner: a client (its own credentials, or the developer portal for its
 * owner), or a person linked to it (a linked token manages only the endpoints it registered, which
 * hear only that person's objects). Another owner's endpoint is not_found. Shared by the REST
 * procedures (server/routers/webhooks) and the portal.
 */
import { randomId } from "../../core/ids";
import type { Db } from "../../platform/db";
import { AppError } from "../../core/errors";
import type { WebhookEventType } from "./event-types";
import { currentDestinationRules, endpointUrlProblem } from "./destination";
import { recordWebhookEvent } from "./record-event";
import { newSigningSecret } from "./signing";

export type EndpointOwner = { clientId: string; personId: string | null };

export const endpointSelect = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  disabledReason: true,
  previousSecretUntil: true,
  createdAt: true,
} as const;

type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: "enabled" | "disabled";
  disabledReason: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
};

export const toWireEndpoint = (row: EndpointRow, now: Date) => ({
  endpoint_id: row.id,
  url: row.url,
  description: row.description,
  event_types: row.eventTypes as WebhookEventType[],
  status: row.status,
  disabled_reason: row.disabledReason,
  previous_secret_until:
    row.previousSecretUntil && row.previousSecretUntil > now
      ? row.previousSecretUntil.toISOString()
      : null,
  created_at: row.createdAt.toISOString(),
});

const ownerWhere = (owner: EndpointOwner) => ({
  clientId: owner.clientId,
  personId: owner.personId,
  deletedAt: null,
});

/** The owner's endpoint, or not_found. */
export const findOwnEndpoint = async (db: Db, owner: EndpointOwner, id: string) => {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id, ...ownerWhere(owner) },
    select: endpointSelect,
  });
  if (!endpoint) throw new AppError("not_found", { message: `No webhook endpoint ${id}.` });
  return endpoint;
};

export const listEndpoints = async (db: Db, owner: EndpointOwner, now: Date) =>
  (
    await db.webhookEndpoint.findMany({
      where: ownerWhere(owner),
      select: endpointSelect,
      orderBy: { createdAt: "asc" },
    })
  ).map((row) => toWireEndpoint(row, now));

/** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
export const createEndpoint = async (
  db: Db,
  owner: EndpointOwner,
  input: {
    url: string;
    eventTypes: WebhookEventType[];
    description?: string;
    maxPerOwner: number;
    now: Date;
  },
) => {
  const problem = endpointUrlProblem(input.url, currentDestinationRules());
  if (problem) throw new AppError("invalid_request", { fields: { url: problem } });
  const secret = newSigningSecret();
  const row = await db.$transaction(async (tx) => {
    // Serialises registrations of one owner so the cap holds under concurrent requests.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${owner.clientId}:${owner.personId ?? ""}`}))`;
    const count = await tx.webhookEndpoint.count({ where: ownerWhere(owner) });
    if (count >= input.maxPerOwner)
      throw new AppError("invalid_request", {
        fields: { url: `at most ${input.maxPerOwner} endpoints; delete one first` },
      });
    return tx.webhookEndpoint.create({
      data: {
        id: randomId("we_"),
        ...owner,
        url: input.url,
        description: input.description ?? null,
        eventTypes: input.eventTypes,
        secret,
        createdAt: input.now,
      },
      select: endpointSelect,
    });
  });
  return { ...toWireEndpoint(row, input.now), secret };
};

/** Deletes an endpoint: nothing more is sent to it (its pending deliveries stop). */
export const deleteEndpoint = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  await findOwnEndpoint(db, owner, id);
  await db.$transaction([
    db.webhookEndpoint.update({ where: { id }, data: { deletedAt: now } }),
    db.webhookDelivery.updateMany({
      where: { endpointId: id, status: "pending" },
      data: { status: "dropped", lastError: "endpoint deleted" },
    }),
  ]);
};

/** A new secret; the previous one keeps signing for `overlapHours` (both signatures are sent meanwhile). */
export const rotateEndpointSecret = async (
  db: Db,
  owner: EndpointOwner,
  id: string,
  options: { overlapHours: number; now: Date },
) => {
  await findOwnEndpoint(db, owner, id);
  const secret = newSigningSecret();
  const current = await db.webhookEndpoint.findUniqueOrThrow({
    where: { id },
    select: { secret: true },
  });
  const row = await db.webhookEndpoint.update({
    where: { id },
    data: {
      secret,
      previousSecret: current.secret,
      previousSecretUntil: new Date(options.now.getTime() + options.overlapHours * 3_600_000),
    },
    select: endpointSelect,
  });
  return { ...toWireEndpoint(row, options.now), secret };
};

/** Enables a disabled endpoint again (after its owner fixed the receiver). */
export const enableEndpoint = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  await findOwnEndpoint(db, owner, id);
  const row = await db.webhookEndpoint.update({
    where: { id },
    data: { status: "enabled", disabledAt: null, disabledReason: null, failingSince: null },
    select: endpointSelect,
  });
  return toWireEndpoint(row, now);
};

/** Records a `webhook.test` event for this endpoint only; the sender delivers it like any other. */
export const sendTestEvent = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  const endpoint = await findOwnEndpoint(db, owner, id);
  if (endpoint.status !== "enabled")
    throw new AppError("invalid_request", {
      fields: { endpoint_id: "is disabled; enable it first" },
    });
  const eventId = await db.$transaction((tx) =>
    recordWebhookEvent(tx, {
      type: "webhook.test",
      clientId: owner.clientId,
      personId: owner.personId,
      objectId: id,
      now,
      endpointId: id,
      data: () => ({
        endpoint_id: id,
        message: "A test event from the Shopping API; reply 2xx to acknowledge it.",
      }),
    }),
  );
  return { event_id: eventId! };
};

/** The newest deliveries to the owner's endpoint (status, response code, attempts, times). */
export const listDeliveries = async (
  db: Db,
  owner: EndpointOwner,
  id: string,
  options: { limit: number },
) => {
  await findOwnEndpoint(db, owner, id);
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId: id },
    orderBy: { createdAt: "desc" },
    take: options.limit,
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
  return rows.map((row) => ({
    delivery_id: row.id,
    event_id: row.event.id,
    type: row.event.type,
    object_id: row.event.objectId,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    last_error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  }));
};

/**
 * Sends a delivery again (same event, same webhook-id: the receiver's duplicate check applies), now,
 * with a fresh retry window from the replay.
 */
export const replayDelivery = async (
  db: Db,
  owner: EndpointOwner,
  options: { endpointId: string; deliveryId: string; now: Date },
) => {
  await findOwnEndpoint(db, owner, options.endpointId);
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: options.deliveryId, endpointId: options.endpointId, status: { not: "pending" } },
    data: { status: "pending", nextAttemptAt: options.now, attempts: 0, lastError: null },
  });
  if (count === 0)
    throw new AppError("not_found", {
      message: `No finished delivery ${options.deliveryId} of this endpoint.`,
    });
  await db.$executeRaw`SELECT pg_notify('webhook_events', '')`;
};
