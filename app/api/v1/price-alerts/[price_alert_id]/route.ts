import { json, withPartner } from "@/server/http/with-partner";
import { ZPriceAlertIdParams } from "@/server/routers/price-alerts/price-alert.schema";

export const dynamic = "force-dynamic";

export const DELETE = withPartner({ scope: "alerts:write", params: ZPriceAlertIdParams }, async ({ caller, params }) => json(await caller.priceAlerts.stop(params), 200));
