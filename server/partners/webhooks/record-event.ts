/**
 * The webhook outbox writer: `recordWebhookEvent(tx, …)` is called by the one writer of each state
 * (moveCheckouts, movePurchase, the order shipping path, and the price-watch writer at merge) inside
 * the transaction of the change, so an event exists exactly when the change commits, and a
 * delivery row is written for each endpoint that will receive it (DESIGN.md, outbox).
 *
 * Who receives it: only the endpoints of the client that owns the object, subscribed to the type,
 * enabled, registered by the client itself or by the object's own person (an endpoint registered
 * with a linked token hears only that person's objects); and when the object is a linked person's, only while that person's grant to the client
 * stands (a disconnected person's objects report nothing more; the sender re-checks before each
 * attempt). When nobody will receive an event, nothing is written and the payload is never built.
 */
import { randomId } from "../../core/ids";
import type { Sql } from "../../platform/sql";
import { findRecipients, insertEvent } from "../store";
import { type WebhookEventType, testEventType } from "./event-types";

/** Raw SQL only, so events are recorded in any transaction (server/platform/sql.ts). */
export type WebhookWriter = Sql;

export type WebhookEventInput = {
  type: WebhookEventType | typeof testEventType;
  /** The client that owns the object (its endpoints are the only candidates). */
  clientId: string;
  /** The linked person whose object it is, if any. */
  personId: string | null;
  /** The object's id (chk_…, pur_…, an order number, a watch id), for the portal and replays. */
  objectId: string;
  now: Date;
  /** Builds `data`, the resource as its GET answers it; called only when some endpoint receives the event. */
  data: () => unknown;
  /** Only this endpoint (the test event). */
  endpointId?: string;
  /** The receiving endpoints when the caller's statement already read them (`recipientsSql`); read here otherwise. */
  recipients?: string[];
};

/**
 * Records one event and its deliveries in the caller's transaction; returns the event id (the
 * `webhook-id` every attempt and replay carries), or null when no endpoint receives it.
 */
export const recordWebhookEvent = async (
  tx: WebhookWriter,
  input: WebhookEventInput,
): Promise<string | null> => {
  const endpoints = input.recipients ?? (await findRecipients(tx, input));
  if (endpoints.length === 0) return null;
  const id = randomId("msg_");
  const payload = {
    type: input.type,
    timestamp: input.now.toISOString(),
    data: await input.data(),
  };
  await insertEvent(tx, {
    id,
    clientId: input.clientId,
    personId: input.personId,
    type: input.type,
    objectId: input.objectId,
    payload,
    endpoints,
    now: input.now,
  });
  return id;
};
