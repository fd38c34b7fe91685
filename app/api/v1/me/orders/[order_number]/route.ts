import { json, withPartner } from "@/server/http/with-partner";
import { ZGetMyOrderRequest } from "@/server/routers/orders/orders.schema";

export const dynamic = "force-dynamic";

/** GET /me/orders/{order_number} (orders:read, linked accounts only). */
export const GET = withPartner({ scope: "orders:read", params: ZGetMyOrderRequest }, async ({ caller, params }) => json(await caller.orders.getMyOrder(params)));
