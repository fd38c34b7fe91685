import { json, withPartner } from "@/server/http/with-partner";
import { ZCheckoutIdParams } from "@/server/routers/checkout/session.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "checkout:write", params: ZCheckoutIdParams }, async ({ caller, params }) =>
  json(await caller.checkout.cancelSession(params)),
);
