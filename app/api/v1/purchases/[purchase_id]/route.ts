import { json, withPartner } from "@/server/http/with-partner";
import { ZPurchaseIdParams } from "@/server/routers/purchases/purchase.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "purchase:write", params: ZPurchaseIdParams }, async ({ caller, params }) => json(await caller.purchases.get(params), 200));
