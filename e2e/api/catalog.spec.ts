import { expect, ops, test } from "../fixtures/api-client";

test.describe("[CATALOG] partner flow over HTTP, through the typed client (sdk/)", () => {
  test("a new partner gets a token and pages through a faceted search of the seeded catalogue", async ({
    partner,
  }) => {
    const first = await partner.sdk.GET("/products", {
      params: { query: { per_page: 48, sort: "newest" } },
    });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("x-request-id")).toBeTruthy();
    expect(first.response.headers.get("ratelimit-policy")).toContain('"minute";q=120');
    const page1 = first.data!;
    expect(page1.data).toHaveLength(48);
    expect(page1.pagination.total).toBeGreaterThan(800);
    const brand = page1.facets.brand[0].value;
    const filtered = (
      await partner.sdk.GET("/products", {
        params: { query: { brand: [brand], per_page: 10, page: 2 } },
      })
    ).data!;
    expect(filtered.pagination.total).toBe(page1.facets.brand[0].count);
    expect(filtered.data.every((item) => item.brand === brand)).toBe(true);
    const page2 = (
      await partner.sdk.GET("/products", {
        params: { query: { per_page: 48, sort: "newest", page: 2 } },
      })
    ).data!;
    expect(page2.data.map((item) => item.id)).not.toContain(page1.data[0].id);
  });

  test("revoking the client with the ops CLI stops its token on the next request", async ({
    partner,
  }) => {
    expect((await partner.sdk.GET("/categories")).response.status).toBe(200);
    ops("client:revoke", partner.clientId);
    const after = await partner.api.get("/api/v1/categories");
    expect(after.status()).toBe(401);
    expect(after.headers()["www-authenticate"]).toContain('error="invalid_token"');
  });

  test("unknown paths under /api/v1 are a JSON 404; the OpenAPI document is served", async ({
    partner,
  }) => {
    const missing = await partner.api.get("/api/v1/nothing/here");
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    const document = await (await partner.api.get("/api/v1/openapi.json")).json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/products");
  });
});
