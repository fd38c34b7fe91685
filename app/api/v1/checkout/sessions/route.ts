import { json, withPartner } from "@/server/http/with-partner";
import { ZCreateCheckoutBody, ZIdempotencyHeaders } from "@/server/routers/checkout/session.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner(
  { scope: "checkout:write", body: ZCreateCheckoutBody, headers: ZIdempotencyHeaders },
  async ({ caller, body, headers }) => {
    const { checkout, replayed } = await caller.checkout.createSession({ ...body, idempotency_key: headers["Idempotency-Key"] });
    return json(checkout, 201, replayed ? { "Idempotent-Replayed": "true" } : {});
  },
);
