import { json, withPartner } from "@/server/http/with-partner";

export const dynamic = "force-dynamic";

/** GET /me (profile:read, linked accounts only). */
export const GET = withPartner({ scope: "profile:read" }, async ({ caller }) => json(await caller.account.getMe()));
