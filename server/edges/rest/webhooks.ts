/**
 * Webhook endpoints (procedures in server/routers/webhooks): what a client configures about itself,
 * so any valid token of the client may call them, whatever its scopes (`clientProcedure`).
 */
import { errorResponse } from "./openapi-parts";
import { ZNoQuery } from "../../accounts";
import {
  maxEndpointsPerOwner,
  ZCreateWebhookEndpointBody,
  ZRotateSecretBody,
  ZWebhookEndpointIdParams,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  ZWebhookTestResult,
} from "../../partners";
import { webhookEventTypes } from "../../partners";
import { defineOperation } from "./operation";

const owner =
  "Any valid token of the client, whatever its scopes. Endpoints registered with client credentials receive the client's events; an endpoint registered with a person's linked token belongs to that person too and receives only events about that person's objects (a linked token sees and manages only such endpoints). Another owner's endpoint is 404.";

const delivery =
  "Deliveries follow Standard Webhooks: POST with webhook-id (the event id, the same on every retry and replay: deduplicate on it), webhook-timestamp and webhook-signature (v1 HMAC-SHA256; after a rotation, one signature per live secret). The body is {type, timestamp, data}, data being the resource as its GET answers it. At least once, in no guaranteed order; retried with backoff for 3 days on anything but a 2xx within 10 seconds (redirects are not followed); an endpoint failing for 5 days is disabled and its owner emailed. " +
  `Events: ${webhookEventTypes.join(", ")}.`;

const notFound = { 404: errorResponse("No such endpoint of this owner (not_found)") };

export const webhookOperations = [
  defineOperation({
    id: "GET /api/v1/webhook-endpoints",
    operationId: "listWebhookEndpoints",
    procedure: "webhooks.api.list",
    input: { query: ZNoQuery },
    output: ZWebhookEndpointList,
    summary: "List the webhook endpoints",
    description: owner,
    call: async ({ caller }) => ({ body: await caller.webhooks.api.list() }),
  }),
  defineOperation({
    id: "POST /api/v1/webhook-endpoints",
    operationId: "createWebhookEndpoint",
    procedure: "webhooks.api.create",
    input: { body: ZCreateWebhookEndpointBody },
    output: ZWebhookEndpointWithSecret,
    status: 201,
    outputDescription: "Registered; keep the secret, it is not shown again",
    summary: "Register a webhook endpoint; the answer shows its signing secret once",
    description: `${owner} https only in production; in the sandbox also http to a loopback host. At most ${maxEndpointsPerOwner} endpoints per owner. ${delivery}`,
    call: async ({ caller, body }) => ({ body: await caller.webhooks.api.create(body) }),
  }),
  defineOperation({
    id: "DELETE /api/v1/webhook-endpoints/{endpoint_id}",
    operationId: "deleteWebhookEndpoint",
    procedure: "webhooks.api.remove",
    input: { params: ZWebhookEndpointIdParams },
    status: 204,
    outputDescription: "Deleted",
    summary: "Delete a webhook endpoint; its pending deliveries stop",
    description: owner,
    responses: notFound,
    call: async ({ caller, params }) => {
      await caller.webhooks.api.remove(params);
      return { body: null };
    },
  }),
  defineOperation({
    id: "POST /api/v1/webhook-endpoints/{endpoint_id}/test",
    operationId: "testWebhookEndpoint",
    procedure: "webhooks.api.test",
    input: { params: ZWebhookEndpointIdParams },
    output: ZWebhookTestResult,
    status: 202,
    outputDescription: "Queued",
    summary: "Send a webhook.test event to this endpoint",
    description: `${owner} The event is queued and delivered like any other (follow it on the developer portal).`,
    responses: notFound,
    call: async ({ caller, params }) => ({ body: await caller.webhooks.api.test(params) }),
  }),
  defineOperation({
    id: "POST /api/v1/webhook-endpoints/{endpoint_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    procedure: "webhooks.api.rotateSecret",
    input: { params: ZWebhookEndpointIdParams, body: ZRotateSecretBody },
    output: ZWebhookEndpointWithSecret,
    summary: "Replace the signing secret; the previous one keeps signing during the overlap",
    description: `${owner} The answer shows the new secret once. Until previous_secret_until, webhook-signature carries a signature by each secret.`,
    responses: notFound,
    call: async ({ caller, params, body }) => ({
      body: await caller.webhooks.api.rotateSecret({ ...params, ...body }),
    }),
  }),
];
