/**
 * The REST edge of the catalogue, called through the real route handlers: authentication, scopes,
 * the 422 for each bound, headers, and the other catalogue endpoints.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as notFoundRoute } from "@/app/api/v1/[...path]/route";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { operationHandler } from "@/server/edges/rest/rest-router";

const categories = operationHandler("GET /api/v1/categories");
const product = operationHandler("GET /api/v1/products/{id}");
const products = operationHandler("GET /api/v1/products");
const store = operationHandler("GET /api/v1/stores/{store_slug}");

let token: string;
let storeSlug: string;
let itemId: number;

const get = (
  handler: typeof products,
  path: string,
  options: {
    token?: string | null;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) => {
  const headers: Record<string, string> = { ...options.headers };
  const bearer = options.token === undefined ? token : options.token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return handler(new Request(`http://localhost:3000/api/v1${path}`, { headers }), {
    params: Promise.resolve(options.params ?? {}),
  });
};

beforeAll(async () => {
  token = await (await createPartner()).token();
  const shop = await createStore({ freeShippingThresholdCents: 15000, agentCheckout: "direct" });
  storeSlug = shop.slug;
  itemId = (
    await createItem({
      storeId: shop.id,
      categoryPath: "Women > Tops > Blouses",
      sizes: ["S", "MD"],
      priceCents: 12950,
    })
  ).id;
});

const metadataUrl = "http://localhost:3000/.well-known/oauth-protected-resource/api/v1";

describe("authentication and scopes", () => {
  it("401 without a token, with WWW-Authenticate and no error parameter", async () => {
    const response = await get(products, "/products", { token: null });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="shopping-api", resource_metadata="http:\/\/localhost:3000\/.well-known\/oauth-protected-resource\/api\/v1"$/,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it("401 invalid_token for an unknown, expired or revoked token, never cached (RELIABILITY C3)", async () => {
    const unknown = await get(products, "/products", { token: "sat_nonsense" });
    expect(unknown.headers.get("www-authenticate")).toBe(
      `Bearer realm="shopping-api", resource_metadata="${metadataUrl}", error="invalid_token", error_description="The access token is invalid, expired or revoked"`,
    );
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    const partner = await createPartner();
    const expired = await partner.token();
    await db().accessToken.updateMany({
      where: { clientId: partner.client.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await get(products, "/products", { token: expired })).status).toBe(401);
    const revoked = await partner.token();
    expect((await get(products, "/products", { token: revoked })).status).toBe(200);
    await db().apiClient.update({
      where: { id: partner.client.id },
      data: { revokedAt: new Date() },
    });
    expect((await get(products, "/products", { token: revoked })).status).toBe(401);
  });

  it("a token in the query string is not accepted", async () => {
    expect((await get(products, `/products?access_token=${token}`, { token: null })).status).toBe(
      401,
    );
  });

  it("403 insufficient_scope without catalog:read, the challenge naming the scope and where to learn how to get it (RFC 6750 §3, RFC 9728 §5.1)", async () => {
    const partner = await createPartner({ scopes: ["checkout:write"] });
    const response = await get(products, "/products", { token: await partner.token() });
    expect(response.status).toBe(403);
    const { error } = await response.json();
    expect([error.code, error.scope]).toEqual(["insufficient_scope", "catalog:read"]);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="shopping-api", resource_metadata="${metadataUrl}", error="insufficient_scope", scope="catalog:read", error_description="${error.message}"`,
    );
  });
});

describe("422 for every bound, naming the field", () => {
  it.each([
    ["per_page=49", "per_page"],
    ["per_page=0", "per_page"],
    ["page=0", "page"],
    ["page=2001", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    // Digits only: what Number() would also read as a number is not one here.
    ["per_page=0x10", "per_page"],
    ["per_page=1e1", "per_page"],
    ["per_page=%2012", "per_page"],
    ["page=", "page"],
    [`q=${"a".repeat(201)}`, "q"],
    [`category=${"a".repeat(301)}`, "category"],
    [`store=${"a".repeat(64)}`, "store"],
    ["min_price=50&max_price=10", "max_price"],
    ["sort=cheapest", "sort"],
    ["min_price=-1", "min_price"],
    ["max_price=1.234", "max_price"],
    ["max_price=abc", "max_price"],
    ["page=1&page=2", "page"],
    ["status=sold", "status"],
  ])("%s -> %s", async (query, field) => {
    const response = await get(products, `/products?${query}`);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe("invalid_request");
    expect(Object.keys(body.error.fields)).toEqual([field]);
  });

  it("accepts the edges of every bound", async () => {
    const response = await get(
      products,
      `/products?per_page=48&page=2000&q=${"a".repeat(200)}&min_price=0&max_price=0&sort=price_desc`,
    );
    expect(response.status).toBe(200);
  });
});

describe("headers", () => {
  it("X-Request-Id is echoed when valid and made otherwise; RateLimit headers on every response", async () => {
    const echoed = await get(products, "/products", { headers: { "x-request-id": "abc-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const made = await get(products, "/products", {
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "hour";q=3000;w=3600');
    expect(made.headers.get("ratelimit-limit")).toBe("120");
    expect(Number(made.headers.get("ratelimit-remaining"))).toBeLessThan(120);
    expect(made.headers.get("ratelimit")).toMatch(/^"minute";r=\d+;t=\d+, "hour";r=\d+;t=\d+$/);
  });
});

describe("other catalogue endpoints", () => {
  it("GET /products/{id} has variants and images; 404 for unknown or unlisted", async () => {
    const response = await get(product, `/products/${itemId}`, { params: { id: String(itemId) } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.variants.map((variant: { size: string }) => variant.size)).toEqual(["S", "MD"]);
    expect(body.images[0]).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:3000\/images\/items\//),
      is_cover: true,
    });
    expect(body.price).toEqual({ amount: "129.50", currency: "CAD" });
    expect((await get(product, "/products/999999", { params: { id: "999999" } })).status).toBe(404);
    expect((await get(product, "/products/abc", { params: { id: "abc" } })).status).toBe(422);
    const closed = await createStore({ isOpen: false });
    const hidden = await createItem({ storeId: closed.id });
    expect(
      (await get(product, `/products/${hidden.id}`, { params: { id: String(hidden.id) } })).status,
    ).toBe(404);
  });

  it("GET /stores/{slug} carries the free-shipping offer", async () => {
    const response = await get(store, `/stores/${storeSlug}`, {
      params: { store_slug: storeSlug },
    });
    const body = await response.json();
    expect(body).toMatchObject({
      slug: storeSlug,
      agent_checkout: "direct",
      open_for_orders: true,
      free_shipping: { threshold: { amount: "150.00", currency: "CAD" } },
    });
    expect(body.shipping_services.map((service: { key: string }) => service.key)).toEqual([
      "standard",
      "express",
    ]);
    expect((await get(store, "/stores/nope", { params: { store_slug: "nope" } })).status).toBe(404);
  });

  it("GET /categories is a tree whose counts include every level below", async () => {
    const body = await (await get(categories, "/categories")).json();
    const women = body.data.find((node: { path: string }) => node.path === "Women");
    const tops = women.children.find((node: { path: string }) => node.path === "Women > Tops");
    expect(
      tops.children.find((node: { path: string }) => node.path === "Women > Tops > Blouses")
        .item_count,
    ).toBe(1);
    expect(women.item_count).toBeGreaterThanOrEqual(tops.item_count);
  });

  it("any other path under /api/v1 is a JSON 404", async () => {
    const response = await notFoundRoute(new Request("http://localhost:3000/api/v1/nothing/here"));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
  });
});
