/** Schemas of webhook endpoints (POST/GET/DELETE /webhook-endpoints, …/test, …/rotate-secret). Imports only zod. */
import { z } from "zod";
import { webhookEventTypes } from "./event-types";

/** Endpoints one client (or one linked person of it) may register. */
export const maxEndpointsPerOwner = 10;

export const ZWebhookEndpointIdParams = z.object({
  endpoint_id: z
    .string({ error: "is required" })
    .regex(/^we_[a-f0-9]{24}$/, "must be a webhook endpoint id (we_…)")
    .meta({ example: "we_4f1c2b7e9a0d3c5e8b6a1f2d" }),
});

export const ZCreateWebhookEndpointBody = z
  .object({
    url: z
      .string({ error: "is required" })
      .trim()
      .min(1, "is required")
      .max(2000, "must be at most 2000 characters")
      .meta({
        description:
          "Where events are POSTed: https (in the sandbox also http to localhost, 127.0.0.1 or [::1])",
        example: "https://partner.example/webhooks/shopping",
      }),
    event_types: z
      .array(z.enum(webhookEventTypes, { error: `must be among: ${webhookEventTypes.join(", ")}` }))
      .min(1, "needs at least one event type")
      .max(webhookEventTypes.length)
      .transform((types) => [...new Set(types)])
      .meta({ description: "The events to receive", example: ["checkout.paid", "order.shipped"] }),
    description: z
      .string()
      .trim()
      .max(200, "must be at most 200 characters")
      .optional()
      .meta({ example: "Order sync" }),
  })
  .strict();

export const ZRotateSecretBody = z
  .object({
    overlap_hours: z
      .number()
      .int("must be a whole number")
      .min(0)
      .max(168, "must be at most 168")
      .default(24)
      .meta({
        description:
          "How long the previous secret keeps signing next to the new one (0 ends it now)",
        example: 24,
      }),
  })
  .strict();

const ZWebhookEndpoint = z
  .object({
    endpoint_id: z.string().meta({ example: "we_4f1c2b7e9a0d3c5e8b6a1f2d" }),
    url: z.string().meta({ example: "https://partner.example/webhooks/shopping" }),
    description: z.string().nullable().meta({ example: "Order sync" }),
    event_types: z
      .array(z.enum(webhookEventTypes))
      .meta({ example: ["checkout.paid", "order.shipped"] }),
    status: z
      .enum(["enabled", "disabled"])
      .meta({ description: "disabled after 5 days of failed deliveries", example: "enabled" }),
    disabled_reason: z.string().nullable().meta({ example: null }),
    previous_secret_until: z.iso.datetime().nullable().meta({
      description: "Until when the previous secret also signs, after a rotation",
      example: null,
    }),
    created_at: z.iso.datetime().meta({ example: "2026-11-22T15:04:05.000Z" }),
  })
  .meta({ id: "WebhookEndpoint" });

export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string().meta({
    description: "The signing secret, shown only in this response (Standard Webhooks, whsec_…)",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).meta({ id: "WebhookEndpointWithSecret" });

export const ZWebhookEndpointList = z
  .object({ data: z.array(ZWebhookEndpoint) })
  .meta({ id: "WebhookEndpointList" });

export const ZWebhookTestResult = z
  .object({
    event_id: z.string().meta({
      description: "The webhook-id of the test event",
      example: "msg_2b7e9a0d3c5e8b6a1f2d4f1c",
    }),
  })
  .meta({ id: "WebhookTestResult" });
