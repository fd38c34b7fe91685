import { json, withPartner } from "@/server/http/with-partner";
import { ZCreatePriceAlertBody, ZListPriceAlertsQuery } from "@/server/routers/price-alerts/price-alert.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "alerts:write", body: ZCreatePriceAlertBody }, async ({ caller, body }) => json(await caller.priceAlerts.create({ item_id: body.catalog_item_id, target_price_cents: body.target_price }), 201));

export const GET = withPartner({ scope: "alerts:write", query: ZListPriceAlertsQuery }, async ({ caller, query }) => json(await caller.priceAlerts.list(query), 200));
