import { json, withPartner } from "@/server/http/with-partner";
import { ZCreateWebhookEndpointBody } from "@/server/routers/webhooks/webhooks.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: null }, async ({ caller }) => json(await caller.webhooks.api.list(), 200));

export const POST = withPartner({ scope: null, body: ZCreateWebhookEndpointBody }, async ({ caller, body }) => json(await caller.webhooks.api.create(body), 201));
