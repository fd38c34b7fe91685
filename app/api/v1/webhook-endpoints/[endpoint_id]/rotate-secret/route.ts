import { json, withPartner } from "@/server/http/with-partner";
import { ZRotateSecretBody, ZWebhookEndpointIdParams } from "@/server/routers/webhooks/webhooks.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: null, params: ZWebhookEndpointIdParams, body: ZRotateSecretBody }, async ({ caller, params, body }) =>
  json(await caller.webhooks.api.rotateSecret({ ...params, ...body }), 200),
);
