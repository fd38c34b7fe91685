import { json, withPartner } from "@/server/http/with-partner";
import { ZWebhookEndpointIdParams } from "@/server/routers/webhooks/webhooks.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: null, params: ZWebhookEndpointIdParams }, async ({ caller, params }) => json(await caller.webhooks.api.test(params), 202));
