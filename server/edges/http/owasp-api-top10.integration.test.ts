/**
 * The OWASP API Security Top 10 (2023) as tests, one block per risk that applies here, against the
 * real route handlers (and, for sizes, the real front door and lean layer) on a real database and
 * Redis. Risks covered elsewhere say where: the fuzzing of every operation
 * (api-fuzz.property.test.ts) is API8's "no stack, no secret"; purchases' own limits are API6's.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { Server } from "node:http";
import net from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as registerAgent } from "@/app/oauth/register/agent/route";
import {
  createItem,
  createLinkedPerson,
  createPartner,
  createStore,
} from "../../../prisma/factories";
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { testCards } from "../../payments/sandbox-cards";
import { agentWithPerson, buy, directItem, quoteOf } from "../../testing/agent-purchases";
import { createCheckoutVia, createQuoteVia, torontoAddress } from "../../testing/checkout-fixtures";
import {
  cancelWatchVia,
  createBuyer,
  getWatch,
  listWatches,
  setWatch,
  watchableItem,
} from "../../testing/watch-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { callRoute } from "../../testing/rest";
import { createFrontServer } from "./front-door";
import { createLeanApi } from "./lean-api";
import { operationHandler } from "@/server/edges/rest/rest-router";
import { startInstanceProcess } from "../../testing/instance-process";
import { seriesSum } from "../../testing/metrics-exposition";

const getSession = operationHandler("GET /api/v1/checkout/sessions/{checkout_id}");
const cancelSession = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");
const postQuote = operationHandler("POST /api/v1/checkout/quotes");
const me = operationHandler("GET /api/v1/me");
const myAddress = operationHandler("GET /api/v1/me/shipping-address");
const myOrders = operationHandler("GET /api/v1/me/orders");
const postPurchase = operationHandler("POST /api/v1/purchases");
const getPurchase = operationHandler("GET /api/v1/purchases/{purchase_id}");
const advancePurchase = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/advance");
const expireCheckout = operationHandler("POST /api/v1/sandbox/checkouts/{checkout_id}/expire");
const shipOrder = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");
const postWatch = operationHandler("POST /api/v1/price-watches");
const getWatches = operationHandler("GET /api/v1/price-watches");
const postAlert = operationHandler("POST /api/v1/price-alerts");
const getAlerts = operationHandler("GET /api/v1/price-alerts");
const stopAlert = operationHandler("DELETE /api/v1/price-alerts/{price_alert_id}");

/** A person linked to a partner with alerts:write, and an item of a store that offers alerts. */
const alerter = async () => createLinkedPerson({ scopes: ["catalog:read", "alerts:write"] });
const alertableItem = async () =>
  createItem({ storeId: (await createStore()).id, priceCents: 5000 });

/** A second process serving the API (server/testing/api-instance.ts) on this file's database and Redis. */
const startApiProcess = () => startInstanceProcess("api-instance.ts");

/** How many partner minute windows `instance` decided in memory instead of Redis (its /metrics). */
const minuteWindowsDecidedByMemory = async (instance: { base: string }) =>
  seriesSum(
    await (await fetch(`${instance.base}/metrics`)).text(),
    "shopping_rate_limit_memory_decisions_total",
    { limit: "partner", window: "minute" },
  );

const errorCodeOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string } }).error.code;

describe("API1 broken object level authorisation: another's object by id is 404, and nothing changes", () => {
  it("purchases: another person's purchase, through another assistant, cannot be read or charged", async () => {
    const owner = await agentWithPerson();
    const made = await buy(
      owner.token,
      (await quoteOf(owner.token, [(await directItem()).id])).quote_id,
    );
    expect(made.status).toBe(201);
    const id = made.body.purchase_id as string;
    const stranger = await agentWithPerson();
    const read = await callRoute(getPurchase, {
      path: `/purchases/${id}`,
      token: stranger.token,
      params: { purchase_id: id },
    });
    const charge = await callRoute(advancePurchase, {
      method: "POST",
      path: `/sandbox/purchases/${id}/advance`,
      token: stranger.token,
      params: { purchase_id: id },
    });
    expect([
      read.status,
      await errorCodeOf(read),
      charge.status,
      await errorCodeOf(charge),
    ]).toEqual([404, "not_found", 404, "not_found"]);
    // Nor can the stranger buy the owner's quote.
    const onTheirQuote = await buy(
      stranger.token,
      made.body.quote_id ?? (await db().purchase.findUniqueOrThrow({ where: { id } })).quoteId,
    );
    expect(onTheirQuote.status).toBe(404);
    expect((await db().purchase.findUniqueOrThrow({ where: { id } })).status).toBe("held");
  });

  it("checkouts and orders: another partner's checkout cannot be read, cancelled or expired; another person's order cannot be shipped or listed", async () => {
    const owner = await createLinkedPerson();
    const store = await createStore();
    const item = await createItem({ storeId: store.id, priceCents: 2000 });
    const quote = await createQuoteVia(owner.token, [{ item_id: item.id }]);
    const checkoutId = JSON.parse(
      (
        await createCheckoutVia(owner.token, {
          quote_id: quote.body.quote_id,
          email: owner.person.email,
        })
      ).text,
    ).checkout_id as string;
    const paid = await pageCaller().checkoutPage.pay({
      id: checkoutId,
      accept_terms: true,
      method: {
        type: "card",
        number: testCards.succeeds,
        exp_month: 1,
        exp_year: 2040,
        cvc: "123",
      },
    });
    const orderNumber = (paid as { orderNumber: string }).orderNumber;

    const stranger = await createLinkedPerson();
    const params = { checkout_id: checkoutId };
    const answers = [
      await callRoute(getSession, {
        path: `/checkout/sessions/${checkoutId}`,
        token: stranger.token,
        params,
      }),
      await callRoute(cancelSession, {
        method: "POST",
        path: `/checkout/sessions/${checkoutId}/cancel`,
        token: stranger.token,
        params,
      }),
      await callRoute(expireCheckout, {
        method: "POST",
        path: `/sandbox/checkouts/${checkoutId}/expire`,
        token: stranger.token,
        params,
      }),
      await callRoute(shipOrder, {
        method: "POST",
        path: `/sandbox/orders/${orderNumber}/ship`,
        token: stranger.token,
        params: { order: orderNumber },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(
      (await (await callRoute(myOrders, { path: "/me/orders", token: stranger.token })).json())
        .data,
    ).toEqual([]);
    expect(
      (
        await (
          await callRoute(getSession, {
            path: `/checkout/sessions/${checkoutId}`,
            token: owner.token,
            params,
          })
        ).json()
      ).status,
    ).toBe("paid");
  });

  it("price watches: another person's watch, through another assistant, cannot be read, listed or cancelled", async () => {
    const owner = await createBuyer();
    const set = await setWatch(owner.token, {
      catalog_item_id: String((await watchableItem(10_000)).id),
      max_price: 80,
      max_total: 100,
    });
    expect(set.status).toBe(201);
    const id = set.body.price_watch_id as number;
    const stranger = await createBuyer();
    const read = await getWatch(stranger.token, id);
    const cancel = await cancelWatchVia(stranger.token, id);
    expect([read.status, read.body.error.code, cancel.status, cancel.body.error.code]).toEqual([
      404,
      "not_found",
      404,
      "not_found",
    ]);
    expect((await listWatches(stranger.token)).body.data).toEqual([]);
    expect((await db().priceWatch.findUniqueOrThrow({ where: { id } })).status).toBe("active");
  });

  it("price alerts: another person's alert cannot be listed or stopped", async () => {
    const owner = await alerter();
    const set = await callRoute(postAlert, {
      path: "/price-alerts",
      token: owner.token,
      body: { catalog_item_id: String((await alertableItem()).id), target_price: "20.00" },
    });
    expect(set.status).toBe(201);
    const id = ((await set.json()) as { price_alert_id: string }).price_alert_id;
    const stranger = await alerter();
    const stop = await callRoute(stopAlert, {
      method: "DELETE",
      path: `/price-alerts/${id}`,
      token: stranger.token,
      params: { price_alert_id: id },
    });
    expect([stop.status, await errorCodeOf(stop)]).toEqual([404, "not_found"]);
    expect(
      (
        (await (
          await callRoute(getAlerts, { path: "/price-alerts", token: stranger.token })
        ).json()) as { data: unknown[] }
      ).data,
    ).toEqual([]);
    expect((await db().priceAlert.findUniqueOrThrow({ where: { id } })).status).toBe("active");
  });

  it("a quote made by another partner cannot be turned into a checkout", async () => {
    const owner = await createPartner();
    const item = await createItem({ storeId: (await createStore()).id });
    const quote = await createQuoteVia(await owner.token(), [{ item_id: item.id }]);
    const other = await createPartner();
    const { response } = await createCheckoutVia(await other.token(), {
      quote_id: quote.body.quote_id,
      email: "ana@example.ca",
    });
    expect(response.status).toBe(404);
  });
});

describe("API3 broken object property level authorisation: mass assignment is refused with 422 naming the fields", () => {
  it.each([
    ["POST /purchases", { status: "paid", grand_total_cents: 1, person_id: "per_other" }],
    ["POST /checkout/quotes", { price_cents: 1, client_id: "cli_other" }],
    ["POST /price-watches", { status: "fulfilled", person_id: "per_other", order_number: "SO-X" }],
    ["POST /price-alerts", { status: "notified", person_id: "per_other" }],
  ])("%s", async (name, extra) => {
    const { token } = name === "POST /price-alerts" ? await alerter() : await agentWithPerson();
    const response =
      name === "POST /purchases"
        ? await callRoute(postPurchase, {
            path: "/purchases",
            token,
            body: { quote_id: "quo_x", ...extra },
            headers: { "Idempotency-Key": randomUUID() },
          })
        : name === "POST /price-watches"
          ? await callRoute(postWatch, {
              path: "/price-watches",
              token,
              body: {
                catalog_item_id: String((await watchableItem(10_000)).id),
                max_price: 80,
                max_total: 100,
                ...extra,
              },
            })
          : name === "POST /price-alerts"
            ? await callRoute(postAlert, {
                path: "/price-alerts",
                token,
                body: {
                  catalog_item_id: String((await alertableItem()).id),
                  target_price: "20.00",
                  ...extra,
                },
              })
            : await callRoute(postQuote, {
                path: "/checkout/quotes",
                token,
                body: { items: [{ item_id: 1 }], shipping_address: torontoAddress, ...extra },
              });
    expect(response.status).toBe(422);
    const body = (await response.json()) as {
      error: { code: string; fields: Record<string, string> };
    };
    expect(body.error.code).toBe("invalid_request");
    expect(Object.keys(body.error.fields).join(" ")).toContain(Object.keys(extra)[0]);
    expect(await db().priceWatch.count({ where: { orderNumber: "SO-X" } })).toBe(0);
  });
});

describe("API4 unrestricted resource consumption", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const lean = await createLeanApi({
      appDir: path.resolve(__dirname, "../../../app"),
      prefixes: ["api/v1", "oauth/token"],
      origin: env().PUBLIC_URL,
    });
    server = createFrontServer({
      api: lean.handle,
      next: (_request, response) => void response.writeHead(404).end(),
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a body over the cap is 413 and headers over 16 KiB are 431, each with the error body", async () => {
    const token = await (await createPartner()).token();
    const big = await fetch(`http://127.0.0.1:${port}/api/v1/checkout/quotes`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        items: [{ item_id: 1 }],
        shipping_address: torontoAddress,
        padding: "x".repeat(2 * 1024 * 1024),
      }),
    });
    expect([big.status, await errorCodeOf(big)]).toEqual([413, "payload_too_large"]);
    const headers = await fetch(`http://127.0.0.1:${port}/api/v1/categories`, {
      headers: { authorization: `Bearer ${token}`, "x-padding": "y".repeat(20 * 1024) },
    });
    expect([headers.status, await errorCodeOf(headers)]).toEqual([
      431,
      "request_header_fields_too_large",
    ]);
  });

  it("a page larger than the documented maximum is 422, not a big answer", async () => {
    const { token } = await createLinkedPerson();
    const response = await callRoute(myOrders, { path: "/me/orders?per_page=1000000", token });
    expect(response.status).toBe(422);
  });

  it("per-client limits hold under parallel load across two service processes sharing Redis", async () => {
    // Two real processes (the API as npm start serves it), one database, one Redis: the count is Redis's.
    const instances = await Promise.all([startApiProcess(), startApiProcess()]);
    try {
      const token = await (await createPartner()).token();
      const call = (i: number) =>
        fetch(`${instances[i % 2].base}/api/v1/categories`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((response) => ({ instance: i % 2, status: response.status }));
      const results: { instance: number; status: number }[] = [];
      // 300 requests, 20 in flight at a time (10 per process).
      for (let wave = 0; wave < 15; wave++)
        results.push(
          ...(await Promise.all(Array.from({ length: 20 }, (_, i) => call(wave * 20 + i)))),
        );
      const allowed = results.filter((result) => result.status === 200);
      // Exactly 120 when every Redis call answers within its deadline. A call that misses it is
      // decided by that process's memory (fail open, docs/adr/0080-partner-rate-limits.md), which
      // lets it through unless Redis already told that process the window is spent: each such
      // decision, and only those, may add one. The processes count them in /metrics.
      const memoryDecisions = await Promise.all(instances.map(minuteWindowsDecidedByMemory));
      expect(allowed.length).toBeGreaterThanOrEqual(120);
      expect(allowed.length).toBeLessThanOrEqual(120 + memoryDecisions[0] + memoryDecisions[1]);
      expect(results.filter((result) => result.status !== 200 && result.status !== 429)).toEqual(
        [],
      );
      // Both processes answered, and both refused once the shared count was spent (and, knowing
      // it spent, refuse now whether Redis or their memory decides).
      expect(new Set(allowed.map((result) => result.instance))).toEqual(new Set([0, 1]));
      expect(
        new Set(results.filter((result) => result.status === 429).map((result) => result.instance)),
      ).toEqual(new Set([0, 1]));
      expect((await Promise.all([call(0), call(1)])).map((result) => result.status)).toEqual([
        429, 429,
      ]);
    } finally {
      for (const instance of instances) instance.kill("SIGTERM");
    }
  }, 120_000);
});

describe("API5 broken function level authorisation: a partner's own token cannot reach a person's endpoints", () => {
  it.each([
    ["GET /me", me, "/me"],
    ["GET /me/shipping-address", myAddress, "/me/shipping-address"],
    ["GET /me/orders", myOrders, "/me/orders"],
  ] as const)("%s is 403 for a client-credentials token", async (_name, route, target) => {
    const token = await (
      await createPartner({
        scopes: ["catalog:read", "checkout:write", "profile:read", "orders:read", "address:read"],
      })
    ).token();
    const response = await callRoute(route, { path: target, token });
    expect(response.status).toBe(403);
  });

  it.each([
    [
      "POST /price-watches",
      () => ({
        route: postWatch,
        path: "/price-watches",
        body: { catalog_item_id: "1", max_price: 80, max_total: 100 },
      }),
    ],
    ["GET /price-watches", () => ({ route: getWatches, path: "/price-watches", body: undefined })],
    [
      "POST /price-alerts",
      () => ({
        route: postAlert,
        path: "/price-alerts",
        body: { catalog_item_id: "1", target_price: "20.00" },
      }),
    ],
    ["GET /price-alerts", () => ({ route: getAlerts, path: "/price-alerts", body: undefined })],
  ] as const)(
    "%s is 403 for a client-credentials token, nothing written",
    async (_name, request) => {
      const token = await (
        await createPartner({
          scopes: ["catalog:read", "checkout:write", "purchase:write", "alerts:write"],
        })
      ).token();
      const before = [await db().priceWatch.count(), await db().priceAlert.count()];
      const { route, path: target, body } = request();
      const response = await callRoute(route, {
        method: body ? "POST" : "GET",
        path: target,
        token,
        body,
      });
      expect([response.status, await errorCodeOf(response)]).toEqual([403, "insufficient_scope"]);
      expect([await db().priceWatch.count(), await db().priceAlert.count()]).toEqual(before);
    },
  );

  it("POST /purchases is 403 for a client-credentials token, nothing written", async () => {
    const token = await (
      await createPartner({ scopes: ["catalog:read", "checkout:write", "purchase:write"] })
    ).token();
    const before = await db().purchase.count();
    const response = await callRoute(postPurchase, {
      path: "/purchases",
      token,
      body: { quote_id: "quo_x" },
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(response.status).toBe(403);
    expect(await db().purchase.count()).toBe(before);
  });
});

/** Source files of the running service (no tests, no generated code). */
const serviceSources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory())
      return name === "generated" || name === "testing" ? [] : serviceSources(full);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });

describe("API7 server-side request forgery", () => {
  it("the service makes no outbound request to an address a client gives: registration metadata pointing at a local listener is never fetched", async () => {
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const url = `https://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
    const response = await registerAgent(
      new Request(`${env().PUBLIC_URL}/oauth/register/agent`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "SSRF probe",
          redirect_uris: ["http://127.0.0.1:8976/callback"],
          logo_uri: `${url}/logo.png`,
          client_uri: `${url}/`,
          jwks_uri: `${url}/jwks`,
          policy_uri: `${url}/policy`,
          tos_uri: `${url}/tos`,
        }),
      }),
    );
    expect(response.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 500));
    listener.close();
    expect(connections).toBe(0);
  });

  it("no module of the service opens an HTTP request by itself: the only outbound clients are the configured PostgreSQL, Redis, SMTP and Stripe", () => {
    const root = path.resolve(__dirname, "../../..");
    const outbound =
      /\bfetch\s*\(|\bhttps?\.(request|get)\s*\(|from "(undici|axios|got|node-fetch)"|new WebSocket\(/;
    const found = [
      ...serviceSources(path.join(root, "server")),
      ...serviceSources(path.join(root, "app")),
    ]
      .filter((file) => outbound.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    // Browser-side code calls its own origin only; list it here when it appears, with why.
    expect(found.filter((file) => !file.endsWith(".tsx"))).toEqual([]);
  });
});
