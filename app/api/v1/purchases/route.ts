import { json, withPartner } from "@/server/http/with-partner";
import { ZIdempotencyHeaders } from "@/server/routers/checkout/session.schema";
import { ZCreatePurchaseBody } from "@/server/routers/purchases/purchase.schema";

export const dynamic = "force-dynamic";

export const POST = withPartner(
  { scope: "purchase:write", body: ZCreatePurchaseBody, headers: ZIdempotencyHeaders },
  async ({ caller, body, headers }) => {
    const { outcome, replayed } = await caller.purchases.create({ ...body, idempotency_key: headers["Idempotency-Key"] });
    return json(outcome.body, outcome.status, replayed ? { "Idempotent-Replayed": "true" } : {});
  },
);
