/** POST /checkout/quotes through the REST handler: pricing per store, unavailable items, and the 4xx edges. */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { createQuoteVia, torontoAddress } from "../testing/checkout-fixtures";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const postQuote = operationHandler("POST /api/v1/checkout/quotes");

let token: string;
let storeA: Awaited<ReturnType<typeof createStore>>;
let storeB: Awaited<ReturnType<typeof createStore>>;

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeA = await createStore({ freeShippingThresholdCents: 10000 });
  storeB = await createStore({ freeShippingThresholdCents: null });
});

const money = (amount: string) => ({ amount, currency: "CAD" });

describe("pricing", () => {
  it("prices two stores with their own shipping, HST and totals, and stores the snapshot", async () => {
    const coat = await createItem({ storeId: storeA.id, priceCents: 6000, sizes: ["S", "M"] });
    const scarf = await createItem({ storeId: storeA.id, priceCents: 4500, sizes: ["One size"] });
    const boots = await createItem({ storeId: storeB.id, priceCents: 12999, sizes: ["8"] });
    const { response, body } = await createQuoteVia(token, [
      { item_id: coat.id, size: "m" },
      { item_id: scarf.id },
      { item_id: boots.id, size: "8" },
    ]);
    expect(response.status).toBe(201);
    expect(body.quote_id).toMatch(/^quo_[0-9a-f]{24}$/);
    expect(new Date(body.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    const [a, b] = body.stores;
    expect(a.store.slug).toBe(storeA.slug);
    expect(a.items.map((line: { size: string }) => line.size)).toEqual(["M", "One size"]);
    // 105.00 of items reaches A's 100.00 threshold: standard is free, express 24.95 + 5.00.
    expect(a.free_shipping).toEqual({
      threshold: money("100.00"),
      qualifies: true,
      remaining: money("0.00"),
    });
    expect(
      a.shipping_options.map(
        (option: { key: string; amount: unknown; free: boolean; cheapest: boolean }) => [
          option.key,
          option.amount,
          option.free,
          option.cheapest,
        ],
      ),
    ).toEqual([
      ["standard", money("0.00"), true, true],
      ["express", money("29.95"), false, false],
    ]);
    expect(a.selected_shipping).toBe("standard");
    expect(a.tax_lines).toEqual([
      { name: "HST", jurisdiction: "ON", rate: "13%", amount: money("13.65") },
    ]);
    expect(a.totals).toEqual({
      subtotal: money("105.00"),
      discount: money("0.00"),
      shipping: money("0.00"),
      tax: money("13.65"),
      grand_total: money("118.65"),
    });
    // B has no offer: 129.99 + 9.95 standard, HST on 139.94 = 18.1922 -> 18.19.
    expect(b.free_shipping).toBeNull();
    expect(b.totals).toEqual({
      subtotal: money("129.99"),
      discount: money("0.00"),
      shipping: money("9.95"),
      tax: money("18.19"),
      grand_total: money("158.13"),
    });
    expect(body.totals).toEqual({
      subtotal: money("234.99"),
      discount: money("0.00"),
      shipping: money("9.95"),
      tax: money("31.84"),
      grand_total: money("276.78"),
    });
    const stored = await db().quote.findUniqueOrThrow({ where: { id: body.quote_id } });
    expect(stored.address).toMatchObject({ province: "ON", postal_code: "M5H 2N2" });
  });

  it("taxes a Quebec address with GST and QST, and a Yukon one with GST plus the remote surcharge", async () => {
    const item = await createItem({ storeId: storeB.id, priceCents: 10000 });
    const quebec = await createQuoteVia(token, [{ item_id: item.id }], {
      ...torontoAddress,
      city: "Montréal",
      province: "QC",
      postal_code: "H2X 1Y4",
    });
    expect(
      quebec.body.stores[0].tax_lines.map(
        (line: { name: string; rate: string; amount: { amount: string } }) => [
          line.name,
          line.rate,
          line.amount.amount,
        ],
      ),
    ).toEqual([
      ["GST", "5%", "5.50"],
      ["QST", "9.975%", "10.97"],
    ]);
    const yukon = await createQuoteVia(token, [{ item_id: item.id }], {
      ...torontoAddress,
      city: "Whitehorse",
      province: "yt",
      postal_code: "y1a 1a1",
    });
    expect(yukon.body.stores[0].shipping_options[0].amount.amount).toBe("24.95");
    expect(yukon.body.shipping_address.postal_code).toBe("Y1A 1A1");
  });

  it("lists unavailable items instead of failing, and refuses when nothing can be bought", async () => {
    const sold = await createItem({ storeId: storeA.id, status: "sold" });
    const gone = await createItem({ storeId: storeA.id, quantity: 0 });
    const fine = await createItem({ storeId: storeA.id });
    const closed = await createStore({ isOpen: false });
    const closedItem = await createItem({ storeId: closed.id });
    const { body } = await createQuoteVia(token, [
      { item_id: sold.id },
      { item_id: gone.id },
      { item_id: fine.id },
      { item_id: closedItem.id },
      { item_id: 999999 },
    ]);
    expect(body.stores).toHaveLength(1);
    expect(
      body.unavailable_items.map((line: { item_id: number; reason: string }) => [
        line.item_id,
        line.reason,
      ]),
    ).toEqual([
      [sold.id, "sold"],
      [gone.id, "out_of_stock"],
      [closedItem.id, "store_unavailable"],
      [999999, "not_found"],
    ]);
    const nothing = await createQuoteVia(token, [
      { item_id: sold.id },
      { item_id: gone.id, quantity: 2 },
    ]);
    expect(nothing.response.status).toBe(409);
    expect(nothing.body.error.code).toBe("nothing_to_buy");
    expect(nothing.body.error.unavailable_items).toHaveLength(2);
  });
});

describe("invalid requests", () => {
  it.each<[string, string, Record<string, unknown>]>([
    [
      "postal code that is not Canadian",
      "shipping_address.postal_code",
      { shipping_address: { ...torontoAddress, postal_code: "90210" } },
    ],
    [
      "postal code of another province",
      "shipping_address.postal_code",
      { shipping_address: { ...torontoAddress, postal_code: "H2X 1Y4" } },
    ],
    [
      "country outside Canada",
      "shipping_address.country",
      { shipping_address: { ...torontoAddress, country: "US" } },
    ],
    [
      "unknown province",
      "shipping_address.province",
      { shipping_address: { ...torontoAddress, province: "ZZ" } },
    ],
    ["no items", "items", { items: [] }],
    ["quantity zero", "items[0].quantity", { items: [{ item_id: 1, quantity: 0 }] }],
    [
      "quantity as a string",
      "items[1].quantity",
      { items: [{ item_id: 1 }, { item_id: 2, quantity: "1" }] },
    ],
    [
      "a price of its own (mass assignment)",
      "items[0].unit_price",
      { items: [{ item_id: 1, unit_price: "0.01" }] },
    ],
  ])("%s -> 422 naming %s", async (_name, field, patch) => {
    const response = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      body: { items: [{ item_id: 1 }], shipping_address: torontoAddress, ...patch },
    });
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).error.fields)).toContain(field);
  });

  it("a size is required when the item has several, and must be one of them", async () => {
    const item = await createItem({ storeId: storeA.id, sizes: ["S", "M"] });
    const missing = await createQuoteVia(token, [{ item_id: 999999 }, { item_id: item.id }]);
    expect(missing.response.status).toBe(422);
    expect(missing.body.error.fields).toEqual({
      "items[1].size": `is required: item ${item.id} comes in S, M`,
    });
    const wrong = await createQuoteVia(token, [{ item_id: item.id, size: "XXL" }]);
    expect(wrong.body.error.fields["items[0].size"]).toContain("is not a size");
  });

  it("415 for a body that is not JSON or is compressed, 413 past 64 KiB, 422 for broken JSON", async () => {
    const xml = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      rawBody: "<quote/>",
      headers: { "content-type": "text/xml" },
    });
    expect(xml.status).toBe(415);
    expect((await xml.json()).error.code).toBe("unsupported_media_type");
    // A compressed body is not read as JSON (a misleading 422): 415 saying what is accepted (RFC 7694).
    const gzipped = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      rawBody: new Uint8Array(gzipSync(JSON.stringify({ items: [{ item_id: 1 }] }))),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(gzipped.status).toBe(415);
    expect(gzipped.headers.get("accept-encoding")).toBe("identity");
    expect((await gzipped.json()).error).toMatchObject({
      code: "unsupported_media_type",
      message: expect.stringContaining("Content-Encoding"),
    });
    const big = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      rawBody: JSON.stringify({ pad: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(big.status).toBe(413);
    const broken = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      rawBody: '{"items": [',
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(422);
    expect((await broken.json()).error.fields).toEqual({ body: "is not valid JSON" });
  });

  it("403 without checkout:write", async () => {
    const reader = await (await createPartner({ scopes: ["catalog:read"] })).token();
    const response = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token: reader,
      body: { items: [{ item_id: 1 }], shipping_address: torontoAddress },
    });
    expect(response.status).toBe(403);
  });
});
