/** OpenAPI paths of webhook endpoints. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { webhookEventTypes } from "../../webhooks/event-types";
import {
  maxEndpointsPerOwner, ZCreateWebhookEndpointBody, ZRotateSecretBody, ZWebhookEndpointIdParams, ZWebhookEndpointList, ZWebhookEndpointWithSecret, ZWebhookTestResult,
} from "./webhooks.schema";

const owner =
  "Any valid token of the client, whatever its scopes. Endpoints registered with client credentials receive the client's events; an endpoint registered with a person's linked token belongs to that person too and receives only events about that person's objects (a linked token sees and manages only such endpoints). Another owner's endpoint is 404.";

const delivery =
  "Deliveries follow Standard Webhooks: POST with webhook-id (the event id, the same on every retry and replay: deduplicate on it), webhook-timestamp and webhook-signature (v1 HMAC-SHA256; after a rotation, one signature per live secret). The body is {type, timestamp, data}, data being the resource as its GET answers it. At least once, in no guaranteed order; retried with backoff for 3 days on anything but a 2xx within 10 seconds (redirects are not followed); an endpoint failing for 5 days is disabled and its owner emailed. " +
  `Events: ${webhookEventTypes.join(", ")}.`;

const notFound = errorResponse("No such endpoint of this owner (not_found)");

export const webhooksPaths: ZodOpenApiPathsObject = {
  "/webhook-endpoints": {
    get: {
      operationId: "listWebhookEndpoints",
      summary: "List the webhook endpoints",
      description: owner,
      responses: { 200: ok(ZWebhookEndpointList), ...commonErrors },
    },
    post: {
      operationId: "createWebhookEndpoint",
      summary: "Register a webhook endpoint; the answer shows its signing secret once",
      description: `${owner} https only in production; in the sandbox also http to a loopback host. At most ${maxEndpointsPerOwner} endpoints per owner. ${delivery}`,
      requestBody: { required: true, content: { "application/json": { schema: ZCreateWebhookEndpointBody } } },
      responses: {
        201: ok(ZWebhookEndpointWithSecret, "Registered; keep the secret, it is not shown again"),
        413: errorResponse("Body over 64 KiB (payload_too_large)"),
        415: errorResponse("Body is not JSON (unsupported_media_type)"),
        ...commonErrors,
      },
    },
  },
  "/webhook-endpoints/{endpoint_id}": {
    delete: {
      operationId: "deleteWebhookEndpoint",
      summary: "Delete a webhook endpoint; its pending deliveries stop",
      description: owner,
      requestParams: { path: ZWebhookEndpointIdParams },
      responses: { 204: { description: "Deleted" }, 404: notFound, ...commonErrors },
    },
  },
  "/webhook-endpoints/{endpoint_id}/test": {
    post: {
      operationId: "testWebhookEndpoint",
      summary: "Send a webhook.test event to this endpoint",
      description: `${owner} The event is queued and delivered like any other (follow it on the developer portal).`,
      requestParams: { path: ZWebhookEndpointIdParams },
      responses: { 202: ok(ZWebhookTestResult, "Queued"), 404: notFound, ...commonErrors },
    },
  },
  "/webhook-endpoints/{endpoint_id}/rotate-secret": {
    post: {
      operationId: "rotateWebhookSecret",
      summary: "Replace the signing secret; the previous one keeps signing during the overlap",
      description: `${owner} The answer shows the new secret once. Until previous_secret_until, webhook-signature carries a signature by each secret.`,
      requestParams: { path: ZWebhookEndpointIdParams },
      requestBody: { required: true, content: { "application/json": { schema: ZRotateSecretBody } } },
      responses: { 200: ok(ZWebhookEndpointWithSecret), 404: notFound, 415: errorResponse("Body is not JSON (unsupported_media_type)"), ...commonErrors },
    },
  },
};
