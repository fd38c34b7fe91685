import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures/api-client";
import { buyableItems, shopperAddress } from "../fixtures/checkout";

test.describe("[CHECKOUT] partner flow over HTTP, through the typed client (sdk/)", () => {
  test("quote, checkout with an idempotent replay, the item leaves availability, and the sandbox expires it back", async ({
    partner,
  }) => {
    const [item] = await buyableItems(partner.api, 1, 6);
    const quoteResult = await partner.sdk.POST("/checkout/quotes", {
      body: { items: [item], shipping_address: shopperAddress },
    });
    expect(quoteResult.response.status).toBe(201);
    const quote = quoteResult.data!;
    expect(quote.stores[0].shipping_options.filter((option) => option.cheapest)).toHaveLength(1);
    // The same Idempotency-Key twice (the client generates one per call unless given).
    const key = randomUUID();
    const body = { quote_id: quote.quote_id, email: "e2e@example.ca" };
    const first = await partner.sdk.POST("/checkout/sessions", {
      body,
      params: { header: { "Idempotency-Key": key } },
      parseAs: "text",
    });
    const replay = await partner.sdk.POST("/checkout/sessions", {
      body,
      params: { header: { "Idempotency-Key": key } },
      parseAs: "text",
    });
    expect([first.response.status, replay.response.status]).toEqual([201, 201]);
    expect(replay.data).toBe(first.data);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    const checkout = JSON.parse(first.data as unknown as string) as { checkout_id: string };
    expect(
      (await partner.sdk.GET("/products/{id}", { params: { path: { id: item.item_id } } })).data!
        .available,
    ).toBe(false);
    const expired = await partner.sdk.POST("/sandbox/checkouts/{checkout_id}/expire", {
      params: { path: { checkout_id: checkout.checkout_id } },
    });
    expect(expired.data!.status).toBe("expired");
    expect(
      (await partner.sdk.GET("/products/{id}", { params: { path: { id: item.item_id } } })).data!
        .available,
    ).toBe(true);
  });

  test("the client adds an Idempotency-Key; without one the service answers 422 naming the header; a non-JSON body is 415", async ({
    partner,
  }) => {
    const missing = await partner.api.post("/api/v1/checkout/sessions", {
      data: { quote_id: "quo_x", email: "e2e@example.ca" },
    });
    expect(missing.status()).toBe(422);
    expect((await missing.json()).error.fields).toHaveProperty("Idempotency-Key");
    const viaClient = await partner.sdk.POST("/checkout/sessions", {
      body: { quote_id: "quo_x", email: "e2e@example.ca" },
      params: { header: {} as never },
    });
    expect(viaClient.response.status).toBe(404);
    const xml = await partner.api.post("/api/v1/checkout/quotes", {
      data: "<quote/>",
      headers: { "Content-Type": "text/xml" },
    });
    expect(xml.status()).toBe(415);
  });
});
