import { randomUUID } from "node:crypto";
import { expect, test } from "../fixtures/api-client";
import { buyableItems, shopperAddress } from "../fixtures/checkout";

test.describe("[CHECKOUT] partner flow over HTTP", () => {
  test("quote, checkout with an idempotent replay, the item leaves availability, and the sandbox expires it back", async ({ partner }) => {
    const [item] = await buyableItems(partner.api, 1, 6);
    const quoteResponse = await partner.api.post("/api/v1/checkout/quotes", { data: { items: [item], shipping_address: shopperAddress } });
    expect(quoteResponse.status()).toBe(201);
    const quote = await quoteResponse.json();
    expect(quote.stores[0].shipping_options.filter((option: { cheapest: boolean }) => option.cheapest)).toHaveLength(1);
    const key = randomUUID();
    const request = { data: { quote_id: quote.quote_id, email: "e2e@example.ca" }, headers: { "Idempotency-Key": key } };
    const first = await partner.api.post("/api/v1/checkout/sessions", request);
    const replay = await partner.api.post("/api/v1/checkout/sessions", request);
    expect([first.status(), replay.status()]).toEqual([201, 201]);
    expect(await replay.text()).toBe(await first.text());
    expect(replay.headers()["idempotent-replayed"]).toBe("true");
    const checkout = await first.json();
    expect((await (await partner.api.get(`/api/v1/products/${item.item_id}`)).json()).available).toBe(false);
    const expired = await partner.api.post(`/api/v1/sandbox/checkouts/${checkout.checkout_id}/expire`);
    expect((await expired.json()).status).toBe("expired");
    expect((await (await partner.api.get(`/api/v1/products/${item.item_id}`)).json()).available).toBe(true);
  });

  test("a missing Idempotency-Key is a 422 naming the header; a non-JSON body is 415", async ({ partner }) => {
    const missing = await partner.api.post("/api/v1/checkout/sessions", { data: { quote_id: "quo_x", email: "e2e@example.ca" } });
    expect(missing.status()).toBe(422);
    expect((await missing.json()).error.fields).toHaveProperty("Idempotency-Key");
    const xml = await partner.api.post("/api/v1/checkout/quotes", { data: "<quote/>", headers: { "Content-Type": "text/xml" } });
    expect(xml.status()).toBe(415);
  });
});
