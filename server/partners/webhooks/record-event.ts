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
import { Prisma } from "../../generated/prisma/client";
import type { Sql } from "../../platform/sql";
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

/** The channel the sender listens on; NOTIFY inside the transaction is delivered at commit. */
export const webhookChannel = "webhook_events";

type Recipients = Pick<WebhookEventInput, "type" | "now" | "endpointId"> & {
  /** The owner client and person as values, or as SQL expressions (columns of the row a move's statement returns). */
  clientId: string | Prisma.Sql;
  personId: string | null | Prisma.Sql;
};

/**
 * SQL of the ids (text[], empty when none) of the endpoints that receive an event: the owner
 * client's, subscribed, enabled, and for a person's object only while linked. A state's writer puts
 * it in the RETURNING of its move, so the event costs no statement of its own when nobody listens.
 */
export const recipientsSql = ({
  type,
  clientId,
  personId,
  now,
  endpointId,
}: Recipients) => Prisma.sql`
  (SELECT coalesce(array_agg(e.id), '{}') FROM webhook_endpoints e
    WHERE e.client_id = ${clientId} AND e.status = 'enabled' AND e.deleted_at IS NULL
      AND (e.person_id IS NULL OR e.person_id = ${personId})
      AND (${endpointId ?? null}::text IS NULL OR e.id = ${endpointId ?? null})
      AND (${type} = ${testEventType} OR ${type} = ANY(e.event_types))
      AND (${personId}::text IS NULL OR EXISTS (
        SELECT 1 FROM oauth_grants g WHERE g.client_id = e.client_id AND g.person_id = ${personId}
          AND g.revoked_at IS NULL AND g.expires_at > ${now})))`;

/**
 * Records one event and its deliveries in the caller's transaction; returns the event id (the
 * `webhook-id` every attempt and replay carries), or null when no endpoint receives it.
 */
export const recordWebhookEvent = async (
  tx: WebhookWriter,
  input: WebhookEventInput,
): Promise<string | null> => {
  const endpoints =
    input.recipients ??
    (await tx.$queryRaw<{ ids: string[] }[]>`SELECT ${recipientsSql(input)} AS ids`)[0].ids;
  if (endpoints.length === 0) return null;
  const id = randomId("msg_");
  const payload = {
    type: input.type,
    timestamp: input.now.toISOString(),
    data: await input.data(),
  };
  await tx.$executeRaw`
    INSERT INTO webhook_events (id, client_id, person_id, type, object_id, payload, created_at)
    VALUES (${id}, ${input.clientId}, ${input.personId}, ${input.type}, ${input.objectId}, ${JSON.stringify(payload)}::jsonb, ${input.now})`;
  await tx.$executeRaw`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at, created_at)
    SELECT delivery.id, ${id}, delivery.endpoint_id, ${input.now}, ${input.now}
    FROM unnest(${endpoints.map(() => randomId("whd_"))}::text[], ${endpoints}::text[]) AS delivery(id, endpoint_id)`;
  await tx.$executeRaw`SELECT pg_notify(${webhookChannel}, '')`;
  return id;
};
