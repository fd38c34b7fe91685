/**
 * Both connectors through the official SDK's client over real HTTP (front door + lean layer): the
 * tool lists, every tool's schemas against its REST operation in the OpenAPI document, every tool
 * called with good and bad arguments (bad ones are isError results with the REST code), the derived
 * idempotency key, session ownership, DNS-rebinding refusals, and audience-bound tokens.
 */
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEnv } from "../../testing/use-env";
import {
  createAgent,
  createItem,
  createLinkedPerson,
  createPerson,
  createStore,
} from "../../../prisma/factories";
import { issueAccessToken, mcpAccountAudience } from "../../auth/tokens";
import { db } from "../../platform/db";
import { openApiDocument } from "../rest/openapi";
import { deprecateEndpoint, restoreEndpoint } from "../rest/endpoint-lifecycle";
import { testCards } from "../../payments/sandbox-cards";
import { torontoAddress } from "../../testing/checkout-fixtures";
import { startConnectorServer } from "../../testing/mcp-server";
import { pageCaller } from "../../testing/page-caller";
import { tools } from "./tools";
import { maxBatchMessages, mcpAccountScopes } from "./edge";

let server: Awaited<ReturnType<typeof startConnectorServer>>;
let itemId: number;
let storeSlug: string;
const clients: Client[] = [];

/** A raw JSON-RPC POST to /mcp, as a client without the SDK sends it; `headers` adds or replaces. */
const postMcp = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
/** The initialize request of a raw client speaking `protocolVersion`. */
const initializeRequest = (protocolVersion: string, name = "raw") => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name, version: "1" } },
});

const connect = async (path: string, token?: string) => {
  const client = new Client({ name: "connector-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}${path}`), {
      requestInit: { headers },
    }),
  );
  clients.push(client);
  return client;
};

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as {
    code: string;
    message: string;
    fields?: Record<string, string>;
  };
};
const structured = <T = Record<string, unknown>>(result: CallToolResult) => {
  expect(result.isError ?? false).toBe(false);
  expect((result.content[0] as { text: string }).text.length).toBeGreaterThan(0);
  return result.structuredContent as T;
};

const accountToken = async (
  personId: string,
  scopes = ["catalog:read", "checkout:write", "profile:read", "orders:read", "address:read"],
) => {
  const agent = await createAgent();
  return (
    await issueAccessToken(db(), {
      clientId: agent.id,
      scopes,
      personId,
      audience: mcpAccountAudience,
      now: new Date(),
    })
  ).token;
};

beforeAll(async () => {
  server = await startConnectorServer();
  const store = await createStore();
  storeSlug = store.slug;
  itemId = (
    await createItem({ storeId: store.id, title: "Connector wool coat", priceCents: 12_500 })
  ).id;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.stop();
});

const publicTools = [
  "search_products",
  "get_product",
  "get_price_history",
  "get_store",
  "list_categories",
  "create_quote",
  "create_checkout",
  "get_checkout",
  "cancel_checkout",
];
const accountTools = [
  ...publicTools,
  "get_me",
  "get_my_shipping_address",
  "list_my_orders",
  "get_my_order",
  "list_my_purchases",
  "preview_price_watch",
  "list_price_watch_evaluations",
  "create_search_watch",
  "list_search_watches",
  "get_search_watch",
  "cancel_search_watch",
  "create_price_watch_group",
  "list_price_watch_groups",
  "get_price_watch_group",
  "cancel_price_watch_group",
];

type JsonSchema = { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
};

/** Resolves a component reference of the OpenAPI document. */
const resolve = (
  schema: JsonSchema,
  document: { components?: { schemas?: Record<string, JsonSchema> } },
): JsonSchema =>
  schema.$ref
    ? resolve(document.components!.schemas![schema.$ref.split("/").pop()!], document)
    : schema;

describe("the public connector at /mcp", () => {
  it("lists exactly its tools, with annotations, and gives the session an id", async () => {
    const client = await connect("/mcp");
    const { tools: listed } = await client.listTools();
    expect(listed.map((entry) => entry.name).sort()).toEqual([...publicTools].sort());
    const byName = Object.fromEntries(listed.map((entry) => [entry.name, entry]));
    expect(byName.search_products.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byName.create_quote.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
    expect(byName.create_checkout.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    expect(byName.cancel_checkout.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(client.getInstructions()).toContain("checkout");
  });

  it("answers each catalogue tool like its endpoint, and bad arguments as isError invalid_request with the fields", async () => {
    const client = await connect("/mcp");
    const found = structured<{ data: { id: number }[]; pagination: { total: number } }>(
      await call(client, "search_products", { q: "connector wool coat", per_page: 5 }),
    );
    expect(found.data.map((item) => item.id)).toContain(itemId);
    expect(errorOf(await call(client, "search_products", { per_page: 99 }))).toMatchObject({
      code: "invalid_request",
      fields: { per_page: "must be at most 48" },
    });
    expect(errorOf(await call(client, "search_products", { q: "x", colour: "red" })).code).toBe(
      "invalid_request",
    );

    expect(
      structured<{ id: number; price: { amount: string } }>(
        await call(client, "get_product", { id: itemId }),
      ),
    ).toMatchObject({ id: itemId, price: { amount: "125.00", currency: "CAD" } });
    expect(errorOf(await call(client, "get_product", { id: "abc" }))).toMatchObject({
      code: "invalid_request",
      fields: { id: "must be a whole number" },
    });
    expect(errorOf(await call(client, "get_product", { id: 2147483000 })).code).toBe("not_found");
    // A whole number past the ids the database holds is out of range, not "not a whole number".
    expect(errorOf(await call(client, "get_product", { id: 999999999999 }))).toMatchObject({
      code: "invalid_request",
      fields: { id: "must be at most 2147483647" },
    });

    const history = await call(client, "get_price_history", { id: itemId });
    expect(structured(history)).toMatchObject({
      catalog_item_id: String(itemId),
      points: [{ price: { amount: "125.00", currency: "CAD" }, to: null }],
      truncated: false,
      lowest_since_listed: { amount: "125.00", currency: "CAD" },
      previous_price: null,
      change_from_previous: null,
    });
    expect((history.content[0] as { text: string }).text).toContain("never changed");
    expect(errorOf(await call(client, "get_price_history", { id: "abc" }))).toMatchObject({
      code: "invalid_request",
      fields: { id: "must be a whole number" },
    });
    expect(errorOf(await call(client, "get_price_history", { id: 2147483000 })).code).toBe(
      "not_found",
    );

    expect(structured(await call(client, "get_store", { store_slug: storeSlug }))).toMatchObject({
      slug: storeSlug,
    });
    expect(errorOf(await call(client, "get_store", { store_slug: "x".repeat(64) }))).toMatchObject({
      code: "invalid_request",
      fields: { store_slug: "must be at most 63 characters" },
    });
    expect(
      errorOf(await call(client, "get_store", { store_slug: "no-such-store-here" })).code,
    ).toBe("not_found");

    expect(
      structured<{ data: unknown[] }>(await call(client, "list_categories")).data,
    ).toBeInstanceOf(Array);
    expect(errorOf(await call(client, "list_categories", { depth: 2 })).code).toBe(
      "invalid_request",
    );
  });

  it("answers a tool whose REST operation is in a brownout with the REST error: retired, with the Link; as before once restored", async () => {
    const client = await connect("/mcp");
    const now = Date.now();
    const announced = new Date(now - 60 * 60 * 1000);
    const sunset = new Date(announced.getTime() + 200 * 24 * 60 * 60 * 1000);
    const replacement = "https://developers.example/changes/categories-v2";
    await deprecateEndpoint({
      operationId: "GET /api/v1/categories",
      sunset,
      replacement,
      brownouts: [{ start: new Date(now - 60_000), end: new Date(now + 10 * 60_000) }],
      now: announced,
    });
    try {
      const retired = errorOf(await call(client, "list_categories"));
      expect(retired.code).toBe("retired");
      expect(retired.message).toContain(replacement);
      // Other tools are not affected.
      expect(structured(await call(client, "get_store", { store_slug: storeSlug }))).toMatchObject({
        slug: storeSlug,
      });
    } finally {
      await restoreEndpoint("GET /api/v1/categories");
    }
    expect(
      structured<{ data: unknown[] }>(await call(client, "list_categories")).data,
    ).toBeInstanceOf(Array);
  });

  it("prices, creates (once per session and arguments), follows and cancels a checkout; another session sees none of it", async () => {
    const client = await connect("/mcp");
    expect(errorOf(await call(client, "create_quote", { items: [] }))).toMatchObject({
      code: "invalid_request",
      fields: { items: "must list at least one item" },
    });
    const quote = structured<{ quote_id: string; totals: { grand_total: { amount: string } } }>(
      await call(client, "create_quote", {
        items: [{ item_id: itemId }],
        shipping_address: torontoAddress,
      }),
    );
    expect(quote.quote_id).toMatch(/^quo_/);

    expect(
      errorOf(
        await call(client, "create_checkout", { quote_id: quote.quote_id, email: "not-an-email" }),
      ),
    ).toMatchObject({ code: "invalid_request", fields: { email: expect.any(String) } });
    const args = { quote_id: quote.quote_id, email: "mcp-buyer@example.ca" };
    const first = await call(client, "create_checkout", args);
    const checkout = structured<{ checkout_id: string; checkout_url: string; status: string }>(
      first,
    );
    expect(checkout).toMatchObject({
      status: "awaiting_payment",
      checkout_url: expect.stringContaining(checkout.checkout_id),
    });
    expect((first.content[0] as { text: string }).text).toContain(checkout.checkout_url);
    // A retried call (no key: the connector derives one from the session and arguments) is the same checkout.
    expect(
      structured<{ checkout_id: string }>(await call(client, "create_checkout", args)).checkout_id,
    ).toBe(checkout.checkout_id);
    expect(
      errorOf(await call(client, "create_checkout", { ...args, idempotency_key: "bad key!" }))
        .fields,
    ).toHaveProperty("idempotency_key");

    expect(
      structured(await call(client, "get_checkout", { checkout_id: checkout.checkout_id })),
    ).toMatchObject({ checkout_id: checkout.checkout_id, status: "awaiting_payment" });
    expect(errorOf(await call(client, "get_checkout", { checkout_id: "" })).code).toBe(
      "invalid_request",
    );
    const other = await connect("/mcp");
    expect(
      errorOf(await call(other, "get_checkout", { checkout_id: checkout.checkout_id })).code,
    ).toBe("not_found");
    expect(
      errorOf(await call(other, "cancel_checkout", { checkout_id: checkout.checkout_id })).code,
    ).toBe("not_found");

    expect(
      structured(await call(client, "cancel_checkout", { checkout_id: checkout.checkout_id })),
    ).toMatchObject({ status: "cancelled" });
    expect(errorOf(await call(client, "cancel_checkout", {})).fields).toHaveProperty("checkout_id");
  });

  it("answers over HTTP with X-Request-Id, security and rate-limit headers; refuses other hosts and origins, GET, and forged sessions", async () => {
    const initialize = initializeRequest("2025-11-25");
    const post = (headers: Record<string, string>, body: unknown = initialize) =>
      postMcp(body, headers);
    const ok = await post({});
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBeTruthy();
    expect(ok.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(ok.headers.get("ratelimit-limit")).toBe("120");
    expect(ok.headers.get("mcp-session-id")).toBeTruthy();
    const evil = await post({ origin: "http://evil.example.com" });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.code).toBe("forbidden");
    // fetch cannot set Host: node's own client sends the rebinding attempt as a browser would.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${server.base}/mcp`);
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: "/mcp",
          method: "POST",
          headers: {
            host: "evil.example.com",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify(initialize));
    });
    expect(rebound).toBe(403);
    expect((await fetch(`${server.base}/mcp`)).status).toBe(405);
    const forged = await post(
      { "mcp-session-id": "forged.session" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    );
    expect(forged.status).toBe(404);
  });
});

describe("malformed requests", () => {
  it("are -32602 Invalid params naming the field, never -32603 Internal error", async () => {
    const send = async (body: unknown, sessionId?: string) => {
      const response = await postMcp(body, {
        "mcp-protocol-version": "2025-11-25",
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
      });
      return {
        response,
        body: (await response.json()) as { error?: { code: number; message: string } },
      };
    };
    const opened = await send(initializeRequest("2025-11-25"));
    const sessionId = opened.response.headers.get("mcp-session-id") ?? undefined;
    const malformed = [
      { method: "tools/call", params: { name: 42 }, field: "params.name" },
      {
        method: "tools/call",
        params: { name: "search_products", arguments: "q=coat" },
        field: "params.arguments",
      },
      { method: "tools/call", field: "params" },
      { method: "tools/list", params: { cursor: 5 }, field: "params.cursor" },
    ];
    for (const [index, { field, ...request }] of malformed.entries()) {
      const { response, body } = await send(
        { jsonrpc: "2.0", id: index + 1, ...request },
        sessionId,
      );
      expect(response.status, JSON.stringify(request)).toBe(200);
      expect(body.error?.code, JSON.stringify(request)).toBe(-32602);
      expect(body.error?.message, JSON.stringify(request)).toContain(field.split(".").at(-1));
    }
    // Params that are not an object make no JSON-RPC request at all: refused by the SDK's transport,
    // which calls any message it cannot read a parse error.
    const notObject = await send(
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: "search_products" },
      sessionId,
    );
    expect(notObject.response.status).toBe(400);
    expect(notObject.body.error?.code).toBe(-32700);
  });
});

describe("the public connector's rate limit", () => {
  it("counts every message of a batch (protocol 2025-03-26 lets a client send them), and refuses a batch of more than 20", async () => {
    // An address of its own (through one trusted proxy), so no other test's calls count here.
    useEnv({ TRUST_PROXY: "1" });
    const send = (body: unknown, sessionId?: string) =>
      postMcp(body, {
        "x-forwarded-for": "198.51.100.77",
        "mcp-protocol-version": "2025-03-26",
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
      });
    const pings = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "ping" }));
    const opened = await send(initializeRequest("2025-03-26", "batch"));
    const sessionId = opened.headers.get("mcp-session-id")!;
    const tooMany = await send(pings(maxBatchMessages + 1), sessionId);
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error).toMatchObject({ code: -32600 });
    const batch = await send(pings(maxBatchMessages), sessionId);
    expect(batch.status).toBe(200);
    expect(await batch.json()).toHaveLength(maxBatchMessages);
    // 120 calls a minute: counted a message each, the sixth or seventh batch of 20 is refused; counted
    // a request each, it would take 120 batches. (12: room for calls memory decides while Redis is slow.)
    let refusedAt: number | undefined;
    for (let round = 2; round <= 12 && refusedAt === undefined; round++) {
      const response = await send(pings(maxBatchMessages), sessionId);
      if (response.status === 429) refusedAt = round;
      else expect(response.status).toBe(200);
    }
    expect(refusedAt, "no 429 within 12 batches of 20").toBeDefined();
  });

  it("counts per address and per session like a partner (120 a minute), then answers 429 rate_limited with Retry-After", async () => {
    const client = await connect("/mcp");
    const transport = client.transport as StreamableHTTPClientTransport;
    const ping = () =>
      postMcp(
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" },
      );
    let refused: Response | undefined;
    // Up to 160: a Redis answer later than the limiter's 25 ms deadline is decided by this process's
    // memory (fail open, RELIABILITY B4-06), so a busy machine may let a few extra requests through.
    for (let i = 0; i < 160 && !refused; i++) {
      const response = await ping();
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused, "no 429 within 160 requests").toBeDefined();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused!.headers.get("ratelimit-policy")).toBe(
      '"minute";q=120;w=60, "hour";q=3000;w=3600',
    );
    expect(refused!.headers.get("ratelimit")).toMatch(/"minute";r=0;t=\d+/);
    expect((await refused!.json()).error.code).toBe("rate_limited");
  });
});

describe("the account connector at /mcp/account", () => {
  it("counts every message of a batch in the token's partner windows", async () => {
    const { person } = await createLinkedPerson();
    const token = await accountToken(person.id);
    const send = (count: number) =>
      fetch(`${server.base}/mcp/account`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": "2025-03-26",
        },
        body: JSON.stringify(
          Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "ping" })),
        ),
      });
    // The partner limit is 120 a minute: counted a message each, the sixth or seventh batch of 20 is
    // refused (12: room for calls memory decides while Redis is slow); counted a request each, 120.
    let refusedAt: number | undefined;
    for (let round = 1; round <= 12 && refusedAt === undefined; round++) {
      const response = await send(maxBatchMessages);
      if (response.status === 429) refusedAt = round;
      else expect(response.status).toBe(200);
    }
    expect(refusedAt, "no 429 within 12 batches of 20").toBeDefined();
  });

  it("asks for sign-in with the protected-resource metadata, and refuses a token of another audience (and the reverse)", async () => {
    const anonymous = await fetch(`${server.base}/mcp/account`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
    const metadata = `resource_metadata="${process.env.PUBLIC_URL}/.well-known/oauth-protected-resource/mcp/account"`;
    // No token: where to learn how to get one and what to ask for, no error (RFC 6750 §3); never cached.
    expect(anonymous.headers.get("www-authenticate")).toBe(
      `Bearer ${metadata}, scope="${mcpAccountScopes.join(" ")}"`,
    );
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
    expect((await anonymous.json()).error.code).toBe("unauthorized");

    const { token: restToken } = await createLinkedPerson();
    const refused = await fetch(`${server.base}/mcp/account`, {
      method: "POST",
      headers: { authorization: `Bearer ${restToken}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer ${metadata}, error="invalid_token", error_description="The access token is invalid, expired or revoked"`,
    );
    expect(refused.headers.get("cache-control")).toBe("no-store");

    const { person } = await createPerson();
    const connectorToken = await accountToken(person.id);
    const rest = await fetch(`${server.base}/api/v1/me`, {
      headers: { authorization: `Bearer ${connectorToken}` },
    });
    expect(rest.status).toBe(401);
    expect((await rest.json()).error.code).toBe("unauthorized");
  });

  it("lists all its tools, each with the schemas of its REST operation in the OpenAPI document", async () => {
    const { person } = await createPerson();
    const client = await connect("/mcp/account", await accountToken(person.id));
    const { tools: listed } = await client.listTools();
    expect(listed.map((entry) => entry.name).sort()).toEqual([...accountTools].sort());
    const document = openApiDocument() as unknown as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    for (const definition of tools) {
      const entry = listed.find((candidate) => candidate.name === definition.name)!;
      const [method, path] = definition.operation.split(" ");
      const operation = document.paths[path.replace(/^\/api\/v1/, "")]?.[method.toLowerCase()];
      expect(operation, definition.operation).toBeDefined();
      const parameters = (operation.parameters ?? []).filter(
        (parameter) => parameter.in !== "header",
      );
      const body = operation.requestBody
        ? resolve(operation.requestBody.content["application/json"].schema, document)
        : { properties: {}, required: [] };
      const idempotent = (operation.parameters ?? []).some(
        (parameter) => parameter.name === "Idempotency-Key",
      );
      const restNames = [
        ...parameters.map((parameter) => parameter.name),
        ...Object.keys(body.properties ?? {}),
        ...(idempotent ? ["idempotency_key"] : []),
      ];
      expect(Object.keys(entry.inputSchema.properties ?? {}).sort(), definition.name).toEqual(
        restNames.sort(),
      );
      const restRequired = [
        ...parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        ...(body.required ?? []),
      ];
      expect([...(entry.inputSchema.required ?? [])].sort(), definition.name).toEqual(
        restRequired.sort(),
      );
      const success = operation.responses["200"] ?? operation.responses["201"];
      const output = resolve(success.content!["application/json"].schema, document);
      expect(entry.outputSchema?.type).toBe("object");
      expect(Object.keys(entry.outputSchema?.properties ?? {}).sort(), definition.name).toEqual(
        Object.keys(output.properties ?? {}).sort(),
      );
      expect([...(entry.outputSchema?.required ?? [])].sort(), definition.name).toEqual(
        [...(output.required ?? [])].sort(),
      );
    }
  });

  it("answers the person's own profile, address and orders, and bad arguments with invalid_request", async () => {
    const { person } = await createPerson({ name: "Connector Person", sizes: ["M"] });
    const client = await connect("/mcp/account", await accountToken(person.id));
    expect(structured(await call(client, "get_me"))).toMatchObject({
      email: person.email,
      sizes: ["M"],
      email_verified: true,
    });
    expect(errorOf(await call(client, "get_me", { extra: 1 })).code).toBe("invalid_request");
    expect(errorOf(await call(client, "get_my_shipping_address")).code).toBe("not_found");
    expect(errorOf(await call(client, "get_my_shipping_address", { extra: 1 })).code).toBe(
      "invalid_request",
    );

    // Buy through the connector with the person's email, pay on the hosted page: the order is theirs.
    const quote = structured<{ quote_id: string }>(
      await call(client, "create_quote", {
        items: [
          {
            item_id: (await createItem({ storeId: (await createStore()).id, priceCents: 4000 })).id,
          },
        ],
        shipping_address: torontoAddress,
      }),
    );
    const checkout = structured<{ checkout_id: string }>(
      await call(client, "create_checkout", { quote_id: quote.quote_id, email: person.email }),
    );
    await pageCaller().checkoutPage.pay({
      id: checkout.checkout_id,
      accept_terms: true,
      method: {
        type: "card",
        number: testCards.succeeds,
        exp_month: 1,
        exp_year: 2040,
        cvc: "123",
      },
    });

    const orders = structured<{ data: { order_number: string }[]; pagination: { total: number } }>(
      await call(client, "list_my_orders", { per_page: 10 }),
    );
    expect(orders.pagination.total).toBe(1);
    expect(errorOf(await call(client, "list_my_orders", { per_page: 51 }))).toMatchObject({
      code: "invalid_request",
      fields: { per_page: "must be at most 50" },
    });
    const number = orders.data[0].order_number;
    expect(structured(await call(client, "get_my_order", { order_number: number }))).toMatchObject({
      order_number: number,
      status: "paid",
    });
    expect(errorOf(await call(client, "get_my_order", {})).fields).toHaveProperty("order_number");

    // Another person's connector sees none of it (not_found, never forbidden).
    const { person: stranger } = await createPerson();
    const strangers = await connect("/mcp/account", await accountToken(stranger.id));
    expect(errorOf(await call(strangers, "get_my_order", { order_number: number })).code).toBe(
      "not_found",
    );
    expect(
      errorOf(await call(strangers, "get_checkout", { checkout_id: checkout.checkout_id })).code,
    ).toBe("not_found");
  });

  it("gives a tool whose scope the person did not grant the REST error: insufficient_scope", async () => {
    const { person } = await createPerson();
    const client = await connect("/mcp/account", await accountToken(person.id, ["catalog:read"]));
    expect(errorOf(await call(client, "list_my_orders")).code).toBe("insufficient_scope");
  });
});
