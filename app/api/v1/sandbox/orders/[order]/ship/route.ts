import { json, withPartner } from "@/server/http/with-partner";
import { ZShipOrderBody, ZShipOrderParams } from "@/server/routers/sandbox/sandbox.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "checkout:write", params: ZShipOrderParams, body: ZShipOrderBody }, async ({ caller, params, body }) =>
  json(await caller.sandbox.shipOrder({ ...params, ...body })),
);
