/**
 * Every /api/v1 operation, table-driven: unknown query parameters and unknown body fields (also
 * nested ones) change nothing about the answer; null in an optional field is the same as leaving
 * it out (reference 1.2.1); status, price, person and order fields the operation does not declare
 * are refused with 422 naming each of them (mass assignment). The table must cover every
 * operation of the OpenAPI document.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createItem, createPartner, createStore } from "../../prisma/factories";
import { knownOperationIds } from "../api/operation-ids";
import { issueAccessToken, randomId } from "../auth/tokens";
import { db } from "../db";
import { torontoAddress } from "../testing/checkout-fixtures";
import { callRoute } from "../testing/rest";
import { protectedFieldReason } from "./request-fields";
import { operationHandler } from "../api/rest-router";

const listCategories = operationHandler("GET /api/v1/categories");
const postQuote = operationHandler("POST /api/v1/checkout/quotes");
const postSession = operationHandler("POST /api/v1/checkout/sessions");
const getSession = operationHandler("GET /api/v1/checkout/sessions/{checkout_id}");
const cancelSession = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");
const getMe = operationHandler("GET /api/v1/me");
const getMyOrders = operationHandler("GET /api/v1/me/orders");
const getMyAddress = operationHandler("GET /api/v1/me/shipping-address");
const listProducts = operationHandler("GET /api/v1/products");
const getProduct = operationHandler("GET /api/v1/products/{id}");
const postPurchase = operationHandler("POST /api/v1/purchases");
const getPurchase = operationHandler("GET /api/v1/purchases/{purchase_id}");
const expireCheckout = operationHandler("POST /api/v1/sandbox/checkouts/{checkout_id}/expire");
const shipOrder = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");
const advancePurchase = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/advance");
const resolvePurchase = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/resolve");

type Handler = Parameters<typeof callRoute>[0];
type Call = { path: string; params?: Record<string, string>; body?: Record<string, unknown>; headers?: Record<string, string> };
type Case = {
  id: string;
  handler: Handler;
  /** A fresh request (a new checkout, a new Idempotency-Key) for each call. */
  call: () => Promise<Call>;
  /** Optional body fields to send as null. */
  nulls?: string[];
  /** Where the nested unknown field goes, for bodies with nested objects. */
  nested?: (body: Record<string, unknown>) => Record<string, unknown>;
};

const allScopes = ["catalog:read", "checkout:write", "profile:read", "orders:read", "address:read", "purchase:write"];
let token: string;
let itemId: number;
let storeSlug: string;
let personId: string;

let storeId: number;

/** A quote of a new one-of-a-kind item (a checkout holds its item, so each call needs its own). */
const quote = async () => {
  const item = await createItem({ storeId, priceCents: 4500 });
  const response = await callRoute(postQuote, { path: "/checkout/quotes", token, body: { items: [{ item_id: item.id }], shipping_address: torontoAddress } });
  return (await response.json()).quote_id as string;
};
const checkout = async () => {
  const response = await callRoute(postSession, { path: "/checkout/sessions", token, body: { quote_id: await quote(), email: "ana@example.ca" }, headers: { "Idempotency-Key": randomUUID() } });
  return (await response.json()).checkout_id as string;
};

const cases: Case[] = [
  { id: "GET /api/v1/products", handler: listProducts, call: async () => ({ path: "/products?per_page=2" }) },
  { id: "GET /api/v1/products/{id}", handler: getProduct, call: async () => ({ path: `/products/${itemId}`, params: { id: String(itemId) } }) },
  { id: "GET /api/v1/stores/{store_slug}", handler: operationHandler("GET /api/v1/stores/{store_slug}"), call: async () => ({ path: `/stores/${storeSlug}`, params: { store_slug: storeSlug } }) },
  { id: "GET /api/v1/categories", handler: listCategories, call: async () => ({ path: "/categories" }) },
  { id: "GET /api/v1/me", handler: getMe, call: async () => ({ path: "/me" }) },
  { id: "GET /api/v1/me/shipping-address", handler: getMyAddress, call: async () => ({ path: "/me/shipping-address" }) },
  { id: "GET /api/v1/me/orders", handler: getMyOrders, call: async () => ({ path: "/me/orders?per_page=5" }) },
  {
    id: "POST /api/v1/checkout/quotes", handler: postQuote,
    call: async () => ({ path: "/checkout/quotes", body: { items: [{ item_id: itemId, quantity: 1 }], shipping_address: torontoAddress } }),
    nulls: ["email"],
    nested: (body) => ({ ...body, items: [{ item_id: itemId, gift_wrap: true }], shipping_address: { ...torontoAddress, delivery_note: "back door" } }),
  },
  {
    id: "POST /api/v1/checkout/sessions", handler: postSession,
    call: async () => ({ path: "/checkout/sessions", body: { quote_id: await quote(), email: "ana@example.ca", first_name: "Ana" }, headers: { "Idempotency-Key": randomUUID() } }),
    nulls: ["first_name", "last_name", "shipping_selections"],
  },
  { id: "GET /api/v1/checkout/sessions/{checkout_id}", handler: getSession, call: async () => { const id = await checkout(); return { path: `/checkout/sessions/${id}`, params: { checkout_id: id } }; } },
  { id: "POST /api/v1/checkout/sessions/{checkout_id}/cancel", handler: cancelSession, call: async () => { const id = await checkout(); return { path: `/checkout/sessions/${id}/cancel`, params: { checkout_id: id } }; } },
  { id: "POST /api/v1/purchases", handler: postPurchase, call: async () => ({ path: "/purchases", body: { quote_id: await quote() }, headers: { "Idempotency-Key": randomUUID() } }) },
  { id: "GET /api/v1/purchases/{purchase_id}", handler: getPurchase, call: async () => ({ path: "/purchases/pur_missing", params: { purchase_id: "pur_missing" } }) },
  { id: "POST /api/v1/sandbox/orders/{order}/ship", handler: shipOrder, call: async () => ({ path: "/sandbox/orders/SO-MISSING-1/ship", params: { order: "SO-MISSING-1" }, body: { carrier: "Canada Post" } }), nulls: ["carrier", "tracking_number"] },
  { id: "POST /api/v1/sandbox/checkouts/{checkout_id}/expire", handler: expireCheckout, call: async () => { const id = await checkout(); return { path: `/sandbox/checkouts/${id}/expire`, params: { checkout_id: id } }; } },
  { id: "POST /api/v1/sandbox/purchases/{purchase_id}/advance", handler: advancePurchase, call: async () => ({ path: "/sandbox/purchases/pur_missing/advance", params: { purchase_id: "pur_missing" } }) },
  { id: "POST /api/v1/sandbox/purchases/{purchase_id}/resolve", handler: resolvePurchase, call: async () => ({ path: "/sandbox/purchases/pur_missing/resolve", params: { purchase_id: "pur_missing" }, body: { outcome: "authorized" } }) },
];

/** Sends the case's request (with `change` applied) and returns its status and error code. */
const send = async (testCase: Case, change: (call: Call) => Call = (call) => call) => {
  const call = change(await testCase.call());
  const method = testCase.id.split(" ")[0];
  const response = await callRoute(testCase.handler, { method, path: call.path, token, params: call.params, headers: call.headers, body: method === "GET" ? undefined : (call.body ?? {}) });
  const body = await response.json();
  return { status: response.status, code: body?.error?.code as string | undefined, fields: body?.error?.fields as Record<string, string> | undefined };
};

const withQuery = (path: string, extra: string) => `${path}${path.includes("?") ? "&" : "?"}${extra}`;

beforeAll(async () => {
  const store = await createStore({ agentCheckout: "direct" });
  storeSlug = store.slug;
  storeId = store.id;
  await createCategory("women/coats");
  itemId = (await createItem({ storeId: store.id, priceCents: 4500 })).id;
  const person = await db().person.create({ data: { id: randomId("per_"), email: `fields-${Date.now()}@example.ca`, name: "Ana", emailVerifiedAt: new Date() } });
  personId = person.id;
  await db().shippingAddress.create({ data: { personId, name: "Ana Tremblay", line1: "100 Queen St W", city: "Toronto", province: "ON", postalCode: "M5H 2N2", country: "CA" } });
});

// A client per test, linked to the same person: the per-client limit (120 a minute) is not what these tests are about.
beforeEach(async () => {
  const partner = await createPartner({ scopes: allScopes, linking: true });
  token = (await issueAccessToken(db(), { clientId: partner.client.id, scopes: allScopes, personId, now: new Date() })).token;
});

describe("request fields on every /api/v1 operation", () => {
  it("the table covers every documented operation", () => {
    expect(cases.map((testCase) => testCase.id).sort()).toEqual([...knownOperationIds()]);
  });

  describe.each(cases.map((testCase) => [testCase.id, testCase] as const))("%s", (_id, testCase) => {
    it("ignores unknown query parameters and unknown body fields (nested too)", async () => {
      const baseline = await send(testCase);
      expect(baseline.status).toBeLessThan(500);
      const extra = await send(testCase, (call) => ({
        ...call,
        path: withQuery(call.path, "unknown_param=1&utm_source=partner&utm_source=again&fields[]=x"),
        body: { ...(testCase.nested ? testCase.nested(call.body ?? {}) : call.body), unknown_field: 1, client_note: { nested: ["a"] } },
      }));
      expect(extra).toEqual(baseline);
    }, 60_000);

    it("refuses status, price, person and order fields with 422 naming each", async () => {
      const isGet = testCase.id.startsWith("GET ");
      const refused = await send(testCase, (call) =>
        isGet
          ? { ...call, path: withQuery(call.path, "status=paid&price=0.01&person_id=per_other&order_id=ord_1") }
          : { ...call, body: { ...call.body, status: "paid", price: "0.01", person_id: "per_other", order_number: "SO-1" } },
      );
      expect(refused.status).toBe(422);
      expect(refused.code).toBe("invalid_request");
      const expected = isGet ? ["order_id", "person_id", "price", "status"] : ["order_number", "person_id", "price", "status"];
      expect(Object.keys(refused.fields ?? {}).filter((name) => refused.fields![name] === protectedFieldReason).sort()).toEqual(expected);
    }, 60_000);
  });

  // Operations whose bodies have optional fields; GET query strings cannot carry a null.
  it.each(cases.filter((testCase) => testCase.nulls).map((testCase) => [testCase.id, testCase] as const))("%s takes null in an optional field as leaving it out", async (_id, testCase) => {
    const baseline = await send(testCase);
    const nulls = await send(testCase, (call) => ({ ...call, body: { ...call.body, ...Object.fromEntries(testCase.nulls!.map((name) => [name, null])) } }));
    expect(nulls).toEqual(baseline);
  }, 60_000);

  it("names a protected field inside a nested object by its path, and writes nothing", async () => {
    const quotes = await db().quote.count();
    const response = await callRoute(postQuote, {
      path: "/checkout/quotes", token,
      body: { items: [{ item_id: itemId, unit_price: "0.01" }], shipping_address: { ...torontoAddress, person_id: "per_other" } },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error.fields).toEqual({ "items[0].unit_price": protectedFieldReason, "shipping_address.person_id": protectedFieldReason });
    expect(await db().quote.count()).toBe(quotes);
  });
});
