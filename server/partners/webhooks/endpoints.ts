/**
 * Webhook endpoints of one owner: a client (its own credentials, or the developer portal for its
 * owner), or a person linked to it (a linked token manages only the endpoints it registered, which
 * hear only that person's objects). Another owner's endpoint is not_found. Shared by the REST
 * procedures (server/routers/webhooks) and the portal.
 */
import { type Db, inTransaction } from "../../platform/db";
import { AppError } from "../../core/errors";
import {
  deleteEndpointRow,
  enableEndpointRow,
  type EndpointOwner,
  type EndpointRow,
  findOwnEndpoint as findOwnEndpointRow,
  insertEndpointUnderCap,
  listEndpointDeliveries,
  listOwnEndpoints,
  readEndpointSecret,
  replaceEndpointSecret,
  requeueDelivery,
} from "../store";
import type { WebhookEventType } from "./event-types";
import { currentDestinationRules, endpointUrlProblem } from "./destination";
import { recordWebhookEvent } from "./record-event";
import { newSigningSecret } from "./signing";

export type { EndpointOwner };

const toWireEndpoint = (row: EndpointRow, now: Date) => ({
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

/** The owner's endpoint, or not_found. */
const findOwnEndpoint = async (db: Db, owner: EndpointOwner, id: string) => {
  const endpoint = await findOwnEndpointRow(db, owner, id);
  if (!endpoint) throw new AppError("not_found", { message: `No webhook endpoint ${id}.` });
  return endpoint;
};

export const listEndpoints = async (db: Db, owner: EndpointOwner, now: Date) =>
  (await listOwnEndpoints(db, owner)).map((row) => toWireEndpoint(row, now));

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
  const row = await insertEndpointUnderCap(db, owner, {
    url: input.url,
    eventTypes: input.eventTypes,
    description: input.description ?? null,
    secret,
    maxPerOwner: input.maxPerOwner,
    now: input.now,
  });
  if (!row)
    throw new AppError("invalid_request", {
      fields: { url: `at most ${input.maxPerOwner} endpoints; delete one first` },
    });
  return { ...toWireEndpoint(row, input.now), secret };
};

/** Deletes an endpoint: nothing more is sent to it (its pending deliveries stop). */
export const deleteEndpoint = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  await findOwnEndpoint(db, owner, id);
  await deleteEndpointRow(db, id, now);
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
  const row = await replaceEndpointSecret(db, {
    id,
    secret,
    previousSecret: await readEndpointSecret(db, id),
    previousUntil: new Date(options.now.getTime() + options.overlapHours * 3_600_000),
  });
  return { ...toWireEndpoint(row, options.now), secret };
};

/** Enables a disabled endpoint again (after its owner fixed the receiver). */
export const enableEndpoint = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  await findOwnEndpoint(db, owner, id);
  const row = await enableEndpointRow(db, id);
  return toWireEndpoint(row, now);
};

/** Records a `webhook.test` event for this endpoint only; the sender delivers it like any other. */
export const sendTestEvent = async (db: Db, owner: EndpointOwner, id: string, now: Date) => {
  const endpoint = await findOwnEndpoint(db, owner, id);
  if (endpoint.status !== "enabled")
    throw new AppError("invalid_request", {
      fields: { endpoint_id: "is disabled; enable it first" },
    });
  const eventId = await inTransaction(db, (tx) =>
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
  const rows = await listEndpointDeliveries(db, id, options.limit);
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
  const isRequeued = await requeueDelivery(db, {
    endpointId: options.endpointId,
    deliveryId: options.deliveryId,
    now: options.now,
  });
  if (!isRequeued)
    throw new AppError("not_found", {
      message: `No finished delivery ${options.deliveryId} of this endpoint.`,
    });
};
