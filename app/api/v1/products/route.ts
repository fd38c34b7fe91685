import { json, withPartner } from "@/server/http/with-partner";
import { ZSearchProductsRequest } from "@/server/routers/catalog/catalog.schema";

export const dynamic = "force-dynamic";

export const GET = withPartner(
  { scope: "catalog:read", query: ZSearchProductsRequest, arrays: ["size", "color", "brand"] },
  async ({ caller, query }) => json(await caller.catalog.searchProducts(query)),
);
