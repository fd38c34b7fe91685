/**
 * POST /checkout/sessions, GET and cancel through the REST handlers: the Checkout shape, the
 * Idempotency-Key rules (RELIABILITY.md B1-20/21, B3-01..06), reservations and the race for a
 * quantity-one item (B3-09), refusals, cancel, expiry by the sweep, and other clients' 404s.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { expireDueCheckouts } from "./checkout-transitions";
import { partnerCaller } from "../testing/callers";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const cancelRoute = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");
const getRoute = operationHandler("GET /api/v1/checkout/sessions/{checkout_id}");

let token: string;
let otherToken: string;
let storeId: number;
let storeSlug: string;

beforeAll(async () => {
  token = await (await createPartner()).token();
  otherToken = await (await createPartner()).token();
  const store = await createStore();
  storeId = store.id;
  storeSlug = store.slug;
});

const quoteFor = async (itemIds: number[], as = token) =>
  (
    await createQuoteVia(
      as,
      itemIds.map((item_id) => ({ item_id })),
    )
  ).body.quote_id as string;
const quantityOf = async (itemId: number) =>
  (await db().variant.findFirstOrThrow({ where: { itemId } })).quantity;
const isAvailable = async (itemId: number) =>
  (await partnerCaller().catalog.getProduct({ id: itemId })).available;

describe("creating a checkout", () => {
  it("201 Checkout with a 30-minute link, reserving the item so search shows it unavailable", async () => {
    const item = await createItem({ storeId, priceCents: 2500 });
    const quoteId = await quoteFor([item.id]);
    const { response, text } = await createCheckoutVia(token, {
      quote_id: quoteId,
      email: "Ana@Example.ca",
      first_name: "Ana",
      last_name: null,
    });
    expect(response.status).toBe(201);
    const checkout = JSON.parse(text);
    expect(Object.keys(checkout)).toEqual([
      "checkout_id",
      "status",
      "checkout_url",
      "expires_at",
      "order_number",
      "totals",
    ]);
    expect(checkout.checkout_id).toMatch(/^chk_[0-9a-f]{24}$/);
    expect(checkout).toMatchObject({
      status: "awaiting_payment",
      checkout_url: `http://localhost:3000/checkout/${checkout.checkout_id}`,
      order_number: null,
    });
    const lifetime = new Date(checkout.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
    expect(checkout.totals.grand_total.amount).toBe("39.49"); // 25.00 + 9.95 + 13% HST of 34.95 = 4.5435 -> 4.54
    expect(await quantityOf(item.id)).toBe(0);
    expect(await isAvailable(item.id)).toBe(false);
    const again = await createQuoteVia(token, [{ item_id: item.id }]);
    expect(again.body.error.code).toBe("nothing_to_buy");
  });

  it("uses the chosen shipping option, and names an unknown store or option (422, nothing stored)", async () => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    const key = randomUUID();
    const unknownStore = await createCheckoutVia(
      token,
      {
        quote_id: quoteId,
        email: "a@example.ca",
        shipping_selections: { "no-such-store": "standard" },
      },
      key,
    );
    expect(unknownStore.response.status).toBe(422);
    expect(JSON.parse(unknownStore.text).error.fields).toEqual({
      "shipping_selections.no-such-store": "is not a store of this quote",
    });
    const unknownKey = await createCheckoutVia(
      token,
      {
        quote_id: quoteId,
        email: "a@example.ca",
        shipping_selections: { [storeSlug]: "teleport" },
      },
      key,
    );
    expect(JSON.parse(unknownKey.text).error.fields[`shipping_selections.${storeSlug}`]).toContain(
      "(standard, express)",
    );
    // The same key with the corrected body executes: validation failures stored nothing.
    const express = await createCheckoutVia(
      token,
      { quote_id: quoteId, email: "a@example.ca", shipping_selections: { [storeSlug]: "express" } },
      key,
    );
    expect(express.response.status).toBe(201);
    expect(JSON.parse(express.text).totals.shipping.amount).toBe("24.95");
  });

  it("409 quote_expired for an expired quote or a price changed since; 404 for another client's quote", async () => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    expect(
      (await createCheckoutVia(otherToken, { quote_id: quoteId, email: "a@example.ca" })).response
        .status,
    ).toBe(404);
    await db().item.update({ where: { id: item.id }, data: { priceCents: 100 } });
    const repriced = await createCheckoutVia(token, { quote_id: quoteId, email: "a@example.ca" });
    expect(repriced.response.status).toBe(409);
    expect(JSON.parse(repriced.text).error.code).toBe("quote_expired");
    expect(await quantityOf(item.id)).toBe(1);
    const fresh = await quoteFor([item.id]);
    await db().quote.update({
      where: { id: fresh },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      JSON.parse((await createCheckoutVia(token, { quote_id: fresh, email: "a@example.ca" })).text)
        .error.code,
    ).toBe("quote_expired");
  });

  it("item_unavailable when one of several items was taken, nothing_to_buy when all were", async () => {
    const [first, second] = [await createItem({ storeId }), await createItem({ storeId })];
    const both = await quoteFor([first.id, second.id]);
    const onlyFirst = await quoteFor([first.id]);
    expect(
      (await createCheckoutVia(token, { quote_id: onlyFirst, email: "a@example.ca" })).response
        .status,
    ).toBe(201);
    const partly = JSON.parse(
      (await createCheckoutVia(token, { quote_id: both, email: "a@example.ca" })).text,
    );
    expect(partly.error).toMatchObject({
      code: "item_unavailable",
      items: [{ item_id: first.id }],
    });
    expect(await quantityOf(second.id)).toBe(1); // the whole attempt rolled back
    const again = JSON.parse(
      (await createCheckoutVia(token, { quote_id: onlyFirst, email: "a@example.ca" })).text,
    );
    expect(again.error.code).toBe("nothing_to_buy");
  });

  it("two checkouts racing for one quantity-one item: exactly one wins, the other is item_unavailable", async () => {
    for (let round = 0; round < 5; round++) {
      const item = await createItem({ storeId });
      const [q1, q2] = [
        await quoteFor([item.id, (await createItem({ storeId })).id]),
        await quoteFor([item.id, (await createItem({ storeId })).id]),
      ];
      const results = await Promise.all(
        [q1, q2].map((quote_id) =>
          createCheckoutVia(token, { quote_id, email: "race@example.ca" }),
        ),
      );
      const statuses = results.map((result) => result.response.status).sort();
      expect(statuses).toEqual([201, 409]);
      expect(
        JSON.parse(results.find((result) => result.response.status === 409)!.text).error.code,
      ).toBe("item_unavailable");
      expect(await quantityOf(item.id)).toBe(0);
    }
  });
});

describe("Idempotency-Key", () => {
  it.each<[string, Record<string, string>]>([
    ["missing", {}],
    ["empty", { "Idempotency-Key": "" }],
    ["65 characters", { "Idempotency-Key": "k".repeat(65) }],
    ["non-ASCII", { "Idempotency-Key": "clé-123" }],
    ["with a quote inside", { "Idempotency-Key": 'ab"cd' }],
    ["given twice", { "Idempotency-Key": "abc, def" }],
  ])("%s -> 422 naming the header, nothing created", async (_name, headers) => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    const response = await callRoute(operationHandler("POST /api/v1/checkout/sessions"), {
      path: "/checkout/sessions",
      token,
      body: { quote_id: quoteId, email: "a@example.ca" },
      headers,
    });
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).error.fields)).toEqual(["Idempotency-Key"]);
    expect(await db().checkout.count({ where: { quoteId } })).toBe(0);
  });

  it("a bad body and a missing key are named together in one 422", async () => {
    const { response, text } = await createCheckoutVia(
      token,
      { quote_id: "quo_x", email: "not-an-email", colour: "red", status: "paid" },
      null,
    );
    expect(response.status).toBe(422);
    // colour is unknown and ignored; status is the service's to set (mass assignment).
    expect(Object.keys(JSON.parse(text).error.fields).sort()).toEqual([
      "Idempotency-Key",
      "email",
      "status",
    ]);
  });

  it("replays the first response byte for byte (quoted key form too), and refuses the key with another body", async () => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    const key = randomUUID();
    const first = await createCheckoutVia(token, { quote_id: quoteId, email: "a@example.ca" }, key);
    const replay = await createCheckoutVia(
      token,
      { email: "a@example.ca", quote_id: quoteId },
      `"${key}"`,
    );
    expect(replay.response.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    const reused = await createCheckoutVia(
      token,
      { quote_id: quoteId, email: "b@example.ca" },
      key,
    );
    expect(reused.response.status).toBe(422);
    expect(JSON.parse(reused.text).error.code).toBe("idempotency_key_reused");
    // Another client's identical key is its own operation (B3-04, B2-13): it does not see the replay.
    const other = await createCheckoutVia(
      otherToken,
      { quote_id: quoteId, email: "a@example.ca" },
      key,
    );
    expect(other.response.status).toBe(404);
    expect(await db().checkout.count({ where: { quoteId } })).toBe(1);
  });

  it("replays a refusal too", async () => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    await db().quote.update({
      where: { id: quoteId },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const key = randomUUID();
    const first = await createCheckoutVia(token, { quote_id: quoteId, email: "a@example.ca" }, key);
    const again = await createCheckoutVia(token, { quote_id: quoteId, email: "a@example.ca" }, key);
    expect([first.response.status, again.response.status]).toEqual([409, 409]);
    expect(again.text).toBe(first.text);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
  });

  it("ten concurrent requests with one key create one checkout; the rest are replays or 409 in use with Retry-After", async () => {
    const item = await createItem({ storeId });
    const quoteId = await quoteFor([item.id]);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        createCheckoutVia(token, { quote_id: quoteId, email: "a@example.ca" }, key),
      ),
    );
    expect(await db().checkout.count({ where: { quoteId } })).toBe(1);
    const created = results.filter((result) => result.response.status === 201);
    expect(
      created.filter((result) => result.response.headers.get("idempotent-replayed") !== "true"),
    ).toHaveLength(1);
    expect(new Set(created.map((result) => result.text)).size).toBe(1);
    for (const busy of results.filter((result) => result.response.status !== 201)) {
      expect(busy.response.status).toBe(409);
      expect(JSON.parse(busy.text).error.code).toBe("idempotency_key_in_use");
      expect(busy.response.headers.get("retry-after")).toBe("1");
    }
  });
});

describe("reading, cancelling and expiring", () => {
  const checkoutFor = async (as = token) => {
    const item = await createItem({ storeId });
    const { text } = await createCheckoutVia(as, {
      quote_id: await quoteFor([item.id], as),
      email: "a@example.ca",
    });
    return { item, checkout: JSON.parse(text) };
  };

  it("GET shows status, per-store shipping, tax and totals; another client gets 404", async () => {
    const { checkout } = await checkoutFor();
    const response = await callRoute(getRoute, {
      path: `/checkout/sessions/${checkout.checkout_id}`,
      token,
      params: { checkout_id: checkout.checkout_id },
    });
    const detail = await response.json();
    expect(detail).toMatchObject({
      checkout_id: checkout.checkout_id,
      status: "awaiting_payment",
      email: "a@example.ca",
      totals: checkout.totals,
      paid_at: null,
    });
    expect(detail.stores[0]).toMatchObject({
      shipping: { key: "standard" },
      order: null,
      tax_lines: [{ name: "HST" }],
    });
    for (const handler of [getRoute, cancelRoute]) {
      const other = await callRoute(handler, {
        method: handler === getRoute ? "GET" : "POST",
        path: `/checkout/sessions/${checkout.checkout_id}`,
        token: otherToken,
        params: { checkout_id: checkout.checkout_id },
      });
      expect(other.status).toBe(404);
    }
    expect(
      await db().checkout.count({
        where: { id: checkout.checkout_id, status: "awaiting_payment" },
      }),
    ).toBe(1);
  });

  it("cancel frees the items at once; cancelling again answers the same; search sees it available", async () => {
    const { item, checkout } = await checkoutFor();
    const cancel = () =>
      callRoute(cancelRoute, {
        method: "POST",
        path: `/checkout/sessions/${checkout.checkout_id}/cancel`,
        token,
        params: { checkout_id: checkout.checkout_id },
      });
    const first = await cancel();
    expect(first.status).toBe(200);
    expect((await first.json()).status).toBe("cancelled");
    expect(await quantityOf(item.id)).toBe(1);
    expect(await isAvailable(item.id)).toBe(true);
    expect((await cancel()).status).toBe(200);
    expect(await quantityOf(item.id)).toBe(1); // freed once, not twice
  });

  it("the sweep expires due checkouts once and frees their items; a cancelled one is not touched", async () => {
    const { item, checkout } = await checkoutFor();
    expect((await expireDueCheckouts(db(), { now: new Date() })).expired).toBe(0);
    const later = new Date(Date.now() + 31 * 60_000);
    const [a, b] = await Promise.all([
      expireDueCheckouts(db(), { now: later }),
      expireDueCheckouts(db(), { now: later }),
    ]);
    expect(a.expired + b.expired).toBeGreaterThanOrEqual(1);
    expect(
      (await db().checkout.findUniqueOrThrow({ where: { id: checkout.checkout_id } })).status,
    ).toBe("expired");
    expect(await quantityOf(item.id)).toBe(1);
    const cancel = await callRoute(cancelRoute, {
      method: "POST",
      path: `/checkout/sessions/${checkout.checkout_id}/cancel`,
      token,
      params: { checkout_id: checkout.checkout_id },
    });
    expect(cancel.status).toBe(409);
    expect((await cancel.json()).error.code).toBe("checkout_closed");
  });
});
