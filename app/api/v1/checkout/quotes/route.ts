import { json, withPartner } from "@/server/http/with-partner";
import { ZCreateQuoteRequest } from "@/server/routers/checkout/checkout.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner({ scope: "checkout:write", body: ZCreateQuoteRequest }, async ({ caller, body }) =>
  json(await caller.checkout.createQuote(body), 201),
);
