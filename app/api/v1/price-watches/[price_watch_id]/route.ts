import { json, withPartner } from "@/server/http/with-partner";
import { ZPriceWatchIdParams } from "@/server/routers/price-watches/price-watch.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "purchase:write", params: ZPriceWatchIdParams }, async ({ caller, params }) => json(await caller.priceWatches.get(params)));

export const DELETE = withPartner({ scope: "purchase:write", params: ZPriceWatchIdParams }, async ({ caller, params }) => json(await caller.priceWatches.cancel(params)));
