/**
 * A database outage answers 503 `unavailable` with Retry-After on every endpoint family (catalogue,
 * account, checkout, orders, purchases, sandbox helpers, the token endpoint and the dashboard's
 * /api/trpc), and the service recovers by itself when the database is back: no restart, the same
 * process and the same pool. The database is reached through a TCP proxy this test can cut.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../../testing/db-proxy";

const proxy = databaseProxy();

type Family = { name: string; call: () => Promise<Response>; okStatus: number };
let families: Family[] = [];

/** The error code in each edge's own body: RFC 6749's `error` at /oauth, tRPC's `error.data.code`, ours elsewhere. */
const errorCode = (
  name: string,
  body: { error?: string | { code?: string; data?: { code?: string } } },
) => {
  if (typeof body.error === "string") return body.error;
  return name.includes("trpc") ? body.error?.data?.code : body.error?.code;
};

beforeAll(async () => {
  await proxy.use();
  const { createAgent, createItem, createLinkedPerson, createPartner, createStore } =
    await import("../../../prisma/factories");
  const { issueAccessToken } = await import("../../auth/tokens");
  const { db } = await import("../../platform/db");
  const { callRoute } = await import("../../testing/rest");
  const { torontoAddress } = await import("../../testing/checkout-fixtures");
  const { encode } = await import("next-auth/jwt");
  const { env } = await import("../../platform/env");
  const { operationHandler } = await import("../rest/rest-router");
  const routes = {
    token: await import("@/app/oauth/token/route"),
    trpc: await import("@/app/api/trpc/[trpc]/route"),
  };
  const partner = await createPartner();
  const token = await partner.token();
  const linked = await createLinkedPerson({
    scopes: ["catalog:read", "checkout:write", "orders:read", "profile:read"],
  });
  const agent = await createAgent();
  const agentToken = (
    await issueAccessToken(db(), {
      clientId: agent.id,
      personId: linked.person.id,
      scopes: ["purchase:write"],
      now: new Date(),
    })
  ).token;
  const store = await createStore();
  const item = await createItem({ storeId: store.id });
  const cookie = `next-auth.session-token=${await encode({ token: { sub: linked.person.id, authAt: Date.now() }, secret: env().APP_SECRET })}`;
  const quoteBody = { items: [{ item_id: item.id }], shipping_address: torontoAddress };
  families = [
    {
      name: "GET /products",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/products"), {
          path: "/products?per_page=1",
          token,
        }),
    },
    {
      name: "GET /products/{id}",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/products/{id}"), {
          path: `/products/${item.id}`,
          token,
          params: { id: String(item.id) },
        }),
    },
    {
      name: "GET /stores/{slug}",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/stores/{store_slug}"), {
          path: `/stores/${store.slug}`,
          token,
          params: { store_slug: store.slug },
        }),
    },
    {
      name: "GET /categories",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/categories"), { path: "/categories", token }),
    },
    {
      name: "GET /me",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/me"), { path: "/me", token: linked.token }),
    },
    {
      name: "GET /me/shipping-address",
      okStatus: 403,
      call: () =>
        callRoute(operationHandler("GET /api/v1/me/shipping-address"), {
          path: "/me/shipping-address",
          token: linked.token,
        }),
    },
    {
      name: "GET /me/orders",
      okStatus: 200,
      call: () =>
        callRoute(operationHandler("GET /api/v1/me/orders"), {
          path: "/me/orders",
          token: linked.token,
        }),
    },
    {
      name: "POST /checkout/quotes",
      okStatus: 201,
      call: () =>
        callRoute(operationHandler("POST /api/v1/checkout/quotes"), {
          path: "/checkout/quotes",
          token,
          body: quoteBody,
        }),
    },
    {
      name: "POST /checkout/sessions",
      okStatus: 404,
      call: () =>
        callRoute(operationHandler("POST /api/v1/checkout/sessions"), {
          path: "/checkout/sessions",
          token,
          body: { quote_id: "quo_missing", email: "ana@example.ca" },
          headers: { "Idempotency-Key": randomUUID() },
        }),
    },
    {
      name: "GET /checkout/sessions/{id}",
      okStatus: 404,
      call: () =>
        callRoute(operationHandler("GET /api/v1/checkout/sessions/{checkout_id}"), {
          path: "/checkout/sessions/chk_missing",
          token,
          params: { checkout_id: "chk_missing" },
        }),
    },
    {
      name: "POST /purchases",
      okStatus: 404,
      call: () =>
        callRoute(operationHandler("POST /api/v1/purchases"), {
          path: "/purchases",
          token: agentToken,
          body: { quote_id: "quo_missing" },
          headers: { "Idempotency-Key": randomUUID() },
        }),
    },
    {
      name: "GET /purchases/{id}",
      okStatus: 404,
      call: () =>
        callRoute(operationHandler("GET /api/v1/purchases/{purchase_id}"), {
          path: "/purchases/pur_missing",
          token: agentToken,
          params: { purchase_id: "pur_missing" },
        }),
    },
    {
      name: "POST /sandbox/checkouts/{id}/expire",
      okStatus: 404,
      call: () =>
        callRoute(operationHandler("POST /api/v1/sandbox/checkouts/{checkout_id}/expire"), {
          method: "POST",
          path: "/sandbox/checkouts/chk_missing/expire",
          token,
          params: { checkout_id: "chk_missing" },
        }),
    },
    {
      name: "POST /oauth/token",
      okStatus: 200,
      call: () =>
        routes.token.POST(
          new Request("http://localhost:3000/oauth/token", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "client_credentials",
              client_id: partner.client.id,
              client_secret: partner.secret,
            }).toString(),
          }),
        ),
    },
    {
      name: "GET /api/trpc (dashboard)",
      okStatus: 200,
      call: () =>
        routes.trpc.GET(
          new Request("http://localhost:3000/api/trpc/account.getSpendingSettings", {
            headers: { cookie },
          }),
        ),
    },
  ];
});

afterAll(() => proxy.cut());

/** The family's status, retried for up to 5 s while the pool reconnects. */
const untilStatus = async (family: Family, wanted: number) => {
  let status = 0;
  for (let attempt = 0; attempt < 20 && status !== wanted; attempt++) {
    status = (await family.call()).status;
    if (status !== wanted) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return status;
};

describe("database outage", () => {
  it("every endpoint family: its usual answer, then 503 unavailable with Retry-After while the database is unreachable, then the usual answer again without a restart", async () => {
    const before = await Promise.all(
      families.map(async (family) => [family.name, (await family.call()).status]),
    );
    expect(Object.fromEntries(before)).toEqual(
      Object.fromEntries(families.map((family) => [family.name, family.okStatus])),
    );

    await proxy.cut();
    const down: Record<string, unknown> = {};
    for (const family of families) {
      const response = await family.call();
      down[family.name] = {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        code: errorCode(family.name, await response.json()),
      };
    }
    const expectedCode = (name: string) =>
      name.startsWith("POST /oauth") ? "temporarily_unavailable" : "unavailable";
    expect(down).toEqual(
      Object.fromEntries(
        families.map((family) => [
          family.name,
          { status: 503, retryAfter: "5", code: expectedCode(family.name) },
        ]),
      ),
    );

    await proxy.open();
    const after: Record<string, number> = {};
    for (const family of families) after[family.name] = await untilStatus(family, family.okStatus);
    expect(after).toEqual(
      Object.fromEntries(families.map((family) => [family.name, family.okStatus])),
    );
  }, 120_000);
});
