import { withPartner } from "@/server/http/with-partner";
import { ZWebhookEndpointIdParams } from "@/server/routers/webhooks/webhooks.schema";

export const dynamic = "force-dynamic";

export const DELETE = withPartner({ scope: null, params: ZWebhookEndpointIdParams }, async ({ caller, params }) => {
  await caller.webhooks.api.remove(params);
  return new Response(null, { status: 204 });
});
