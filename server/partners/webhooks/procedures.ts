/**
 * Webhook endpoints: the partner's own, through the API (any token of the client; a linked token
 * manages only the endpoints it registered), and the developer portal's, for the signed-in owner of
 * an approved application. Each procedure calls the one use case in server/partners/webhooks/endpoints.ts.
 */
import { z } from "zod";
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  type EndpointOwner,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  rotateEndpointSecret,
  sendTestEvent,
} from "./endpoints";
import { router } from "../../platform/trpc/init";
import { clientProcedure, shopperProcedure } from "../../platform/trpc/procedures";
import { ownClient } from "../manage-client";
import {
  maxEndpointsPerOwner,
  ZCreateWebhookEndpointBody,
  ZRotateSecretBody,
  ZWebhookEndpointIdParams,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  ZWebhookTestResult,
} from "./webhooks.schema";

const apiRouter = router({
  list: clientProcedure
    .output(ZWebhookEndpointList)
    .query(async ({ ctx }) => ({ data: await listEndpoints(ctx.db, ctx.owner, ctx.clock.now()) })),
  create: clientProcedure
    .input(ZCreateWebhookEndpointBody)
    .output(ZWebhookEndpointWithSecret)
    .mutation(({ ctx, input }) =>
      createEndpoint(ctx.db, ctx.owner, {
        url: input.url,
        eventTypes: input.event_types,
        description: input.description,
        maxPerOwner: maxEndpointsPerOwner,
        now: ctx.clock.now(),
      }),
    ),
  remove: clientProcedure
    .input(ZWebhookEndpointIdParams)
    .mutation(({ ctx, input }) =>
      deleteEndpoint(ctx.db, ctx.owner, input.endpoint_id, ctx.clock.now()),
    ),
  test: clientProcedure
    .input(ZWebhookEndpointIdParams)
    .output(ZWebhookTestResult)
    .mutation(({ ctx, input }) =>
      sendTestEvent(ctx.db, ctx.owner, input.endpoint_id, ctx.clock.now()),
    ),
  rotateSecret: clientProcedure
    .input(ZWebhookEndpointIdParams.extend(ZRotateSecretBody.shape))
    .output(ZWebhookEndpointWithSecret)
    .mutation(({ ctx, input }) =>
      rotateEndpointSecret(ctx.db, ctx.owner, input.endpoint_id, {
        overlapHours: input.overlap_hours,
        now: ctx.clock.now(),
      }),
    ),
});

const ZApplication = z.object({ application_id: z.string().min(1).max(64) });
const ZPortalEndpoint = ZApplication.extend(ZWebhookEndpointIdParams.shape);

/** The portal acts as the client of the signed-in person's application (their own clients only). */
const portalOwner = async (
  ctx: { db: Parameters<typeof ownClient>[0]; personId: string },
  applicationId: string,
): Promise<EndpointOwner> => ({
  clientId: (await ownClient(ctx.db, ctx.personId, applicationId)).id,
  personId: null,
});

const portalRouter = router({
  overview: shopperProcedure.input(ZApplication).query(async ({ ctx, input }) => {
    const owner = await portalOwner(ctx, input.application_id);
    const now = ctx.clock.now();
    const endpoints = await listEndpoints(ctx.db, owner, now);
    return Promise.all(
      endpoints.map(async (endpoint) => ({
        ...endpoint,
        deliveries: await listDeliveries(ctx.db, owner, endpoint.endpoint_id, { limit: 20 }),
      })),
    );
  }),
  create: shopperProcedure
    .input(ZApplication.extend(ZCreateWebhookEndpointBody.shape))
    .mutation(async ({ ctx, input }) =>
      createEndpoint(ctx.db, await portalOwner(ctx, input.application_id), {
        url: input.url,
        eventTypes: input.event_types,
        description: input.description,
        maxPerOwner: maxEndpointsPerOwner,
        now: ctx.clock.now(),
      }),
    ),
  remove: shopperProcedure
    .input(ZPortalEndpoint)
    .mutation(async ({ ctx, input }) =>
      deleteEndpoint(
        ctx.db,
        await portalOwner(ctx, input.application_id),
        input.endpoint_id,
        ctx.clock.now(),
      ),
    ),
  test: shopperProcedure
    .input(ZPortalEndpoint)
    .mutation(async ({ ctx, input }) =>
      sendTestEvent(
        ctx.db,
        await portalOwner(ctx, input.application_id),
        input.endpoint_id,
        ctx.clock.now(),
      ),
    ),
  enable: shopperProcedure
    .input(ZPortalEndpoint)
    .mutation(async ({ ctx, input }) =>
      enableEndpoint(
        ctx.db,
        await portalOwner(ctx, input.application_id),
        input.endpoint_id,
        ctx.clock.now(),
      ),
    ),
  rotateSecret: shopperProcedure
    .input(ZPortalEndpoint)
    .mutation(async ({ ctx, input }) =>
      rotateEndpointSecret(
        ctx.db,
        await portalOwner(ctx, input.application_id),
        input.endpoint_id,
        { overlapHours: 24, now: ctx.clock.now() },
      ),
    ),
  replay: shopperProcedure
    .input(ZPortalEndpoint.extend({ delivery_id: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) =>
      replayDelivery(ctx.db, await portalOwner(ctx, input.application_id), {
        endpointId: input.endpoint_id,
        deliveryId: input.delivery_id,
        now: ctx.clock.now(),
      }),
    ),
});

export const webhooksRouter = router({ api: apiRouter, portal: portalRouter });
