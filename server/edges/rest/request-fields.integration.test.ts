/**
 * Every /api/v1 operation, driven by the operation table (server/edges/rest/operations.ts), so a new entry
 * is covered without touching this file: unknown query parameters and unknown body fields (also
 * nested ones) change nothing about the answer; null in an optional body field is the same as
 * leaving it out (reference 1.2.1); status, price, person and order fields the operation does not
 * declare are refused with 422 naming each of them (mass assignment). Operations listed in
 * `realistic` send a request that reaches their procedure (a meaningful baseline); any other entry
 * gets one built from its declaration (placeholder path parameters, an empty body).
 */
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCategory, createItem, createPartner, createStore } from "../../../prisma/factories";
import type { Operation, OperationId } from "./operation";
import { isOperationId, operations } from "./operations";
import { operationHandler } from "./rest-router";
import { allScopes } from "../../auth/scopes";
import { issueAccessToken } from "../../auth/tokens";
import { randomId } from "../../core/ids";
import { db } from "../../platform/db";
import { torontoAddress } from "../../testing/checkout-fixtures";
import { callRoute } from "../../testing/rest";
import { declaredKeys, objectShape, protectedFieldReason } from "./request-fields";

const postQuote = operationHandler("POST /api/v1/checkout/quotes");
const postSession = operationHandler("POST /api/v1/checkout/sessions");

type Call = {
  path: string;
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
};
type Realistic = {
  /** A fresh request (a new checkout, a new Idempotency-Key) for each call. */
  call: () => Promise<Call>;
  /** Where the nested unknown field goes, for bodies with nested objects. */
  nested?: (body: Record<string, unknown>) => Record<string, unknown>;
};

let token: string;
let itemId: number;
let priceItemId: number;
let storeSlug: string;
let personId: string;

let storeId: number;

/** A quote of a new one-of-a-kind item (a checkout holds its item, so each call needs its own). */
const quote = async () => {
  const item = await createItem({ storeId, priceCents: 4500 });
  const response = await callRoute(postQuote, {
    path: "/checkout/quotes",
    token,
    body: { items: [{ item_id: item.id }], shipping_address: torontoAddress },
  });
  return (await response.json()).quote_id as string;
};
const checkout = async () => {
  const response = await callRoute(postSession, {
    path: "/checkout/sessions",
    token,
    body: { quote_id: await quote(), email: "ana@example.ca" },
    headers: { "Idempotency-Key": randomUUID() },
  });
  return (await response.json()).checkout_id as string;
};

const realistic: Partial<Record<OperationId, Realistic>> = {
  "GET /api/v1/products": {
    call: async () => ({ path: "/products?per_page=2&sort=price_drop&on_sale=false" }),
  },
  "GET /api/v1/products/{id}/price-history": {
    call: async () => ({
      path: `/products/${itemId}/price-history`,
      params: { id: String(itemId) },
    }),
  },
  "GET /api/v1/products/{id}": {
    call: async () => ({ path: `/products/${itemId}`, params: { id: String(itemId) } }),
  },
  "GET /api/v1/stores/{store_slug}": {
    call: async () => ({ path: `/stores/${storeSlug}`, params: { store_slug: storeSlug } }),
  },
  "GET /api/v1/categories": { call: async () => ({ path: "/categories" }) },
  "GET /api/v1/me": { call: async () => ({ path: "/me" }) },
  "GET /api/v1/me/shipping-address": { call: async () => ({ path: "/me/shipping-address" }) },
  "GET /api/v1/me/orders": { call: async () => ({ path: "/me/orders?per_page=5" }) },
  "POST /api/v1/checkout/quotes": {
    call: async () => ({
      path: "/checkout/quotes",
      body: { items: [{ item_id: itemId, quantity: 1 }], shipping_address: torontoAddress },
    }),
    nested: (body) => ({
      ...body,
      items: [{ item_id: itemId, gift_wrap: true }],
      shipping_address: { ...torontoAddress, delivery_note: "back door" },
    }),
  },
  "POST /api/v1/checkout/sessions": {
    call: async () => ({
      path: "/checkout/sessions",
      body: { quote_id: await quote(), email: "ana@example.ca", first_name: "Ana" },
    }),
  },
  "GET /api/v1/checkout/sessions/{checkout_id}": {
    call: async () => {
      const id = await checkout();
      return { path: `/checkout/sessions/${id}`, params: { checkout_id: id } };
    },
  },
  "POST /api/v1/checkout/sessions/{checkout_id}/cancel": {
    call: async () => {
      const id = await checkout();
      return { path: `/checkout/sessions/${id}/cancel`, params: { checkout_id: id } };
    },
  },
  "POST /api/v1/purchases": {
    call: async () => ({ path: "/purchases", body: { quote_id: await quote() } }),
  },
  "GET /api/v1/purchases/{purchase_id}": {
    call: async () => ({ path: "/purchases/pur_missing", params: { purchase_id: "pur_missing" } }),
  },
  "POST /api/v1/sandbox/orders/{order}/ship": {
    call: async () => ({
      path: "/sandbox/orders/SO-MISSING-1/ship",
      params: { order: "SO-MISSING-1" },
      body: { carrier: "Canada Post" },
    }),
  },
  "POST /api/v1/sandbox/checkouts/{checkout_id}/expire": {
    call: async () => {
      const id = await checkout();
      return { path: `/sandbox/checkouts/${id}/expire`, params: { checkout_id: id } };
    },
  },
  "POST /api/v1/sandbox/purchases/{purchase_id}/advance": {
    call: async () => ({
      path: "/sandbox/purchases/pur_missing/advance",
      params: { purchase_id: "pur_missing" },
    }),
  },
  "POST /api/v1/sandbox/purchases/{purchase_id}/resolve": {
    call: async () => ({
      path: "/sandbox/purchases/pur_missing/resolve",
      params: { purchase_id: "pur_missing" },
      body: { outcome: "authorized" },
    }),
  },
  "GET /api/v1/search-watches": { call: async () => ({ path: "/search-watches?per_page=5" }) },
  "POST /api/v1/sandbox/items": {
    call: async () => ({
      path: "/sandbox/items",
      body: { store: storeSlug, title: "Realistic wool coat", price: "40.00", sizes: ["M"] },
    }),
  },
  "POST /api/v1/sandbox/items/{item_id}/price": {
    call: async () => ({
      path: `/sandbox/items/${priceItemId}/price`,
      params: { item_id: String(priceItemId) },
      body: { price: "39.00" },
    }),
  },
};

/** A request built from the entry alone: each path parameter "missing", no query, an empty body. */
const fromDeclaration = (entry: Operation): Call => {
  const params = Object.fromEntries(
    [...entry.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name, "missing"]),
  );
  return {
    path: entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name]),
    params,
    body: {},
  };
};

const requestOf = (entry: Operation) =>
  realistic[entry.id]?.call() ?? Promise.resolve(fromDeclaration(entry));

/** Sends the entry's request (with `change` applied) through its REST handler and returns its status and error. */
const send = async (entry: Operation, change: (call: Call) => Call = (call) => call) => {
  const call = change(await requestOf(entry));
  // A declared Idempotency-Key is fresh on every call, so no answer is a replay of another.
  const headers = {
    ...(entry.input.headers?.shape["Idempotency-Key"] ? { "Idempotency-Key": randomUUID() } : {}),
    ...call.headers,
  };
  const response = await callRoute(operationHandler(entry.id), {
    method: entry.method,
    path: call.path,
    token,
    params: call.params,
    headers,
    body: entry.method === "GET" ? undefined : (call.body ?? {}),
  });
  const body = await response.json();
  return {
    status: response.status,
    code: body?.error?.code as string | undefined,
    fields: body?.error?.fields as Record<string, string> | undefined,
  };
};

const withQuery = (path: string, extra: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${extra}`;

/** The entry's top-level body fields that may be left out (reference 1.2.1: null there means left out, whether the schema takes null or the edge drops it). */
const optionalBodyFields = (entry: Operation) => {
  return Object.entries(objectShape(entry.input.body) ?? {})
    .filter(([, field]) => field.safeParse(undefined).success)
    .map(([name]) => name);
};

/** Protected names sent in the mass-assignment check that the entry does not declare (so must be refused). */
const undeclared = (names: string[], schema: z.ZodType | undefined) => {
  const declared = declaredKeys(schema) ?? new Set<string>();
  return names.filter((name) => !declared.has(name)).sort();
};

beforeAll(async () => {
  const store = await createStore({ agentCheckout: "direct" });
  storeSlug = store.slug;
  storeId = store.id;
  await createCategory("women/coats");
  itemId = (await createItem({ storeId: store.id, priceCents: 4500 })).id;
  priceItemId = (await createItem({ storeId: store.id, priceCents: 4500 })).id;
  const person = await db().person.create({
    data: {
      id: randomId("per_"),
      email: `fields-${Date.now()}@example.ca`,
      name: "Ana",
      emailVerifiedAt: new Date(),
    },
  });
  personId = person.id;
  await db().shippingAddress.create({
    data: {
      personId,
      name: "Ana Tremblay",
      line1: "100 Queen St W",
      city: "Toronto",
      province: "ON",
      postalCode: "M5H 2N2",
      country: "CA",
    },
  });
});

// A client per test, linked to the same person: the per-client limit (120 a minute) is not what these tests are about.
beforeEach(async () => {
  const partner = await createPartner({ scopes: [...allScopes], linking: true });
  token = (
    await issueAccessToken(db(), {
      clientId: partner.client.id,
      scopes: allScopes,
      personId,
      now: new Date(),
    })
  ).token;
});

describe("request fields on every /api/v1 operation", () => {
  it("runs on every entry of the operation table, and its realistic requests name only entries", () => {
    expect(operations.length).toBeGreaterThan(0);
    expect(Object.keys(realistic).filter((id) => !isOperationId(id))).toEqual([]);
  });

  describe.each(operations.map((entry) => [entry.id, entry] as const))("%s", (_id, entry) => {
    it("ignores unknown query parameters and unknown body fields (nested too)", async () => {
      const baseline = await send(entry);
      expect(baseline.status).toBeLessThan(500);
      const nested = realistic[entry.id]?.nested;
      const extra = await send(entry, (call) => ({
        ...call,
        path: withQuery(
          call.path,
          "unknown_param=1&utm_source=partner&utm_source=again&fields[]=x",
        ),
        body: {
          ...(nested ? nested(call.body ?? {}) : call.body),
          unknown_field: 1,
          client_note: { nested: ["a"] },
        },
      }));
      expect(extra).toEqual(baseline);
    }, 60_000);

    it("refuses status, price, person and order fields it does not declare with 422 naming each", async () => {
      const isGet = entry.method === "GET";
      const sent = isGet
        ? ["status", "price", "person_id", "order_id"]
        : ["status", "price", "person_id", "order_number"];
      const expected = undeclared(sent, isGet ? entry.input.query : entry.input.body);
      expect(expected.length).toBeGreaterThan(0);
      const refused = await send(entry, (call) =>
        isGet
          ? {
              ...call,
              path: withQuery(
                call.path,
                "status=paid&price=0.01&person_id=per_other&order_id=ord_1",
              ),
            }
          : {
              ...call,
              body: {
                ...call.body,
                status: "paid",
                price: "0.01",
                person_id: "per_other",
                order_number: "SO-1",
              },
            },
      );
      expect(refused.status, JSON.stringify(refused)).toBe(422);
      expect(refused.code).toBe("invalid_request");
      expect(
        Object.keys(refused.fields ?? {})
          .filter((name) => refused.fields![name] === protectedFieldReason)
          .sort(),
      ).toEqual(expected);
    }, 60_000);
  });

  // Found by the fuzzer: a body key like "constructor" looked up Object's own member as a field schema (a 500).
  it.each(
    operations.filter((entry) => entry.method !== "GET").map((entry) => [entry.id, entry] as const),
  )(
    "%s ignores prototype keys (constructor, __proto__) in the body like any unknown field",
    async (_id, entry) => {
      const baseline = await send(entry);
      const polluted = await send(entry, (call) => ({
        ...call,
        body: {
          ...call.body,
          ...JSON.parse(
            '{"constructor":{"prototype":{"isAdmin":true}},"__proto__":{"isAdmin":true}}',
          ),
        },
      }));
      expect(polluted).toEqual(baseline);
    },
    60_000,
  );

  // Entries whose bodies have optional fields (found from the body schema); GET query strings cannot carry a null.
  const withOptionalFields = operations.filter((entry) => optionalBodyFields(entry).length > 0);
  it("finds optional body fields to send as null", () => {
    expect(withOptionalFields.map((entry) => entry.id)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/checkout/quotes",
        "POST /api/v1/checkout/sessions",
        "POST /api/v1/sandbox/orders/{order}/ship",
      ]),
    );
  });

  it.each(withOptionalFields.map((entry) => [entry.id, entry] as const))(
    "%s takes null in an optional field as leaving it out",
    async (_id, entry) => {
      const names = optionalBodyFields(entry);
      const without = (body: Record<string, unknown> = {}) =>
        Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));
      const omitted = await send(entry, (call) => ({ ...call, body: without(call.body) }));
      const nulls = await send(entry, (call) => ({
        ...call,
        body: { ...without(call.body), ...Object.fromEntries(names.map((name) => [name, null])) },
      }));
      expect(omitted.status).toBeLessThan(500);
      expect(nulls).toEqual(omitted);
    },
    60_000,
  );

  it("names a protected field inside a nested object by its path, and writes nothing", async () => {
    const quotes = await db().quote.count();
    const response = await callRoute(postQuote, {
      path: "/checkout/quotes",
      token,
      body: {
        items: [{ item_id: itemId, unit_price: "0.01" }],
        shipping_address: { ...torontoAddress, person_id: "per_other" },
      },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error.fields).toEqual({
      "items[0].unit_price": protectedFieldReason,
      "shipping_address.person_id": protectedFieldReason,
    });
    expect(await db().quote.count()).toBe(quotes);
  });
});
