import { json, withPartner } from "@/server/http/with-partner";
import { ZNoQuery } from "@/server/routers/account/account.schema";

export const dynamic = "force-dynamic";

/** GET /me (profile:read, linked accounts only). */
export const GET = withPartner({ scope: "profile:read", query: ZNoQuery }, async ({ caller }) => json(await caller.account.getMe()));
