import { json, withPartner } from "@/server/http/with-partner";

export const dynamic = "force-dynamic";

export const GET = withPartner({ scope: "catalog:read" }, async ({ caller }) => json(await caller.catalog.listCategories()));
