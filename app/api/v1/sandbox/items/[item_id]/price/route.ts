import { json, withPartner } from "@/server/http/with-partner";
import { ZItemIdParams, ZSetItemPriceBody } from "@/server/routers/sandbox/sandbox.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "catalog:read", params: ZItemIdParams, body: ZSetItemPriceBody }, async ({ caller, params, body }) =>
  json(await caller.sandbox.setItemPrice({ item_id: params.item_id, price: body.price })),
);
