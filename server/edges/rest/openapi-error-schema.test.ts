/**
 * Every extra member an error body carries (core/errors.ts `details`, put there by the throwers
 * named below) validates against the document's Error schema, read as JSON Schema from the served
 * document itself: a client validating responses against the document accepts them, while a member
 * the document does not declare is still refused (additionalProperties stays false).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, errorBody } from "../../core/errors";
import { toMoney } from "../../core/money";
import { requirePersonGrant } from "../../platform/trpc/admission";
import { refuseAtPrice } from "../../price-watches/create-price-watch";
import { openApiDocument } from "./openapi";

/** The document's Error schema as a validator, its $refs resolved against the document's components. */
const errorValidator = () => {
  const { schemas } = openApiDocument().components as { schemas: Record<string, unknown> };
  const retarget = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"));
  return z.fromJSONSchema({ ...retarget(schemas.Error), $defs: retarget(schemas) });
};

const thrown = (act: () => unknown) => {
  try {
    act();
  } catch (error) {
    if (error instanceof AppError) return errorBody(error);
    throw error;
  }
  throw new Error("nothing was thrown");
};

const body = (code: ConstructorParameters<typeof AppError>[0], details: Record<string, unknown>) =>
  errorBody(new AppError(code, { details }));

/** One body per extra member, in the shape its thrower writes (file named). */
const bodies: Record<string, unknown> = {
  // platform/trpc/admission.ts: a client-credentials token on a person's operation
  scope: thrown(() =>
    requirePersonGrant(
      { kind: "client", clientId: "cli_x", scopes: [] } as never,
      "purchase:write",
    ),
  ),
  // checkout/create-session.ts, purchases/policy.ts
  items: body("item_unavailable", {
    items: [
      { item_id: 48213, size: "M" },
      { item_id: 7, size: null },
    ],
  }),
  // checkout/create-quote.ts
  unavailable_items: body("nothing_to_buy", {
    unavailable_items: [{ item_id: 48213, size: "M", quantity: 1, reason: "sold" }],
  }),
  // purchases/policy.ts, price-watches/create-price-watch.ts, search-watches/create-search-watch.ts
  "limit and room": body("over_spending_limit", { limit: toMoney(50_000), room: toMoney(12_050) }),
  // price-watches/create-price-watch.ts, price-alerts/price-alerts.ts
  "limit as a count": body("too_many_watches", { limit: 25 }),
  // price-watches/create-price-watch.ts
  current_price: thrown(() => refuseAtPrice({ priceCents: 4_500 } as never, 5_000)),
  price_watch_id: body("already_watching", { price_watch_id: 311 }),
  // price-alerts/price-alerts.ts
  price_alert_id: body("already_alerting", { price_alert_id: "alr_9c2e4b7d1f3a4e6b8c0d2f4a" }),
  // purchases/policy.ts
  stores: body("store_requires_checkout_link", { stores: ["north-thread"] }),
  // checkout/cancel-session.ts, price-watches/cancel-watch.ts
  status: body("checkout_closed", { status: "paid" }),
  // platform/rate-limit.ts, auth/auth-limits.ts
  violated_policies: body("rate_limited", { violated_policies: ["minute", "hour"] }),
  // checkout/open-checkout-caps.ts
  retry_after: body("too_many_open_checkouts", { limit: 5, retry_after: 1800 }),
};

describe("the document's Error schema", () => {
  const validator = errorValidator();

  it.each(Object.entries(bodies))("declares %s", (_member, errorBodyOf) => {
    const parsed = validator.safeParse(errorBodyOf);
    expect(parsed.error?.issues).toBeUndefined();
  });

  it("still refuses a member it does not declare, and a declared member of the wrong type", () => {
    expect(validator.safeParse(body("not_found", { surprise: true })).success).toBe(false);
    expect(validator.safeParse(body("over_spending_limit", { room: "12.50" })).success).toBe(false);
    expect(validator.safeParse(body("already_watching", { price_watch_id: "311" })).success).toBe(
      false,
    );
  });
});
