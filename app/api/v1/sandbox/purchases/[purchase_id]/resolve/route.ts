import { json, withPartner } from "@/server/http/with-partner";
import { ZPurchaseIdParams } from "@/server/routers/purchases/purchase.schema";
import { ZResolvePurchaseBody } from "@/server/routers/sandbox/sandbox.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "purchase:write", params: ZPurchaseIdParams, body: ZResolvePurchaseBody }, async ({ caller, params, body }) =>
  json(await caller.sandbox.resolvePurchase({ ...params, ...body })),
);
