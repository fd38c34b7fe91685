import { json, withPartner } from "@/server/http/with-partner";
import { ZListMyOrdersRequest } from "@/server/routers/orders/orders.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "orders:read", query: ZListMyOrdersRequest }, async ({ caller, query }) => json(await caller.orders.listMyOrders(query)));
