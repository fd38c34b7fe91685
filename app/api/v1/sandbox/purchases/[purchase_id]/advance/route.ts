import { json, withPartner } from "@/server/http/with-partner";
import { ZPurchaseIdParams } from "@/server/routers/purchases/purchase.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "purchase:write", params: ZPurchaseIdParams }, async ({ caller, params }) => json(await caller.sandbox.advancePurchase(params)));
