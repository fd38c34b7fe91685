import { json, withPartner } from "@/server/http/with-partner";
import { ZGetStoreRequest } from "@/server/routers/catalog/catalog.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "catalog:read", params: ZGetStoreRequest }, async ({ caller, params }) =>
  json(await caller.catalog.getStore(params)),
);
