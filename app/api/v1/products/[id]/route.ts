import { json, withPartner } from "@/server/http/with-partner";
import { ZGetProductRequest } from "@/server/routers/catalog/catalog.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "catalog:read", params: ZGetProductRequest }, async ({ caller, params }) =>
  json(await caller.catalog.getProduct(params)),
);
