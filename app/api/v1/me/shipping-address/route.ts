import { json, withPartner } from "@/server/http/with-partner";

export const dynamic = "force-dynamic";

/** GET /me/shipping-address (address:read, linked accounts only). */
export const GET = withPartner({ scope: "address:read" }, async ({ caller }) => json(await caller.account.getShippingAddress()));
