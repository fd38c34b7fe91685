import { json, withPartner } from "@/server/http/with-partner";
import { ZCreatePriceWatchBody, ZListPriceWatchesQuery } from "@/server/routers/price-watches/price-watch.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "purchase:write", body: ZCreatePriceWatchBody }, async ({ caller, body }) => json(await caller.priceWatches.create(body), 201));

export const GET = withPartner({ scope: "purchase:write", query: ZListPriceWatchesQuery }, async ({ caller, query }) => json(await caller.priceWatches.list(query)));
