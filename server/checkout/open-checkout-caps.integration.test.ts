/**
 * M7: open checkouts reserve items for 30 minutes, so each caller's are capped: a public MCP session
 * 5, a public caller's address MCP_OPEN_CHECKOUTS_PER_ADDRESS, a partner client
 * CLIENT_OPEN_RESERVED_UNITS reserved units. Past a cap: 429 too_many_open_checkouts with
 * Retry-After (over MCP, the tool error body with retry_after).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { operationHandler } from "../edges/rest/rest-router";
import { db } from "../platform/db";
import { createCheckoutVia, createQuoteVia, torontoAddress } from "../testing/checkout-fixtures";
import { startConnectorServer } from "../testing/mcp-server";
import { callRoute } from "../testing/rest";
import { useEnv } from "../testing/use-env";
import { openCheckoutsPerSession } from "./open-checkout-caps";

const cancelRoute = operationHandler("POST /api/v1/checkout/sessions/{checkout_id}/cancel");
let server: Awaited<ReturnType<typeof startConnectorServer>>;
let storeId: number;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startConnectorServer();
  storeId = (await createStore()).id;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.stop();
});

describe("a partner client's open reserved units", () => {
  it("past CLIENT_OPEN_RESERVED_UNITS: 429 too_many_open_checkouts with Retry-After, not stored under the key; other clients unaffected; room again after a cancel", async () => {
    useEnv({ CLIENT_OPEN_RESERVED_UNITS: "3" });
    const partner = await createPartner();
    const token = await partner.token();
    const quoteOf = async (bearer: string, quantity: number) => {
      const item = await createItem({ storeId, priceCents: 1_000, quantity: 10 });
      return (await createQuoteVia(bearer, [{ item_id: item.id, quantity }])).body
        .quote_id as string;
    };
    const checkoutOf = async (bearer: string, quantity: number) =>
      createCheckoutVia(bearer, {
        quote_id: await quoteOf(bearer, quantity),
        email: "caps@example.ca",
      });
    const first = await checkoutOf(token, 2);
    expect(first.response.status).toBe(201);
    const key = crypto.randomUUID();
    const refusedBody = { quote_id: await quoteOf(token, 2), email: "caps@example.ca" };
    const refused = await createCheckoutVia(token, refusedBody, key);
    expect(refused.response.status).toBe(429);
    const retryAfter = Number(refused.response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect(JSON.parse(refused.text).error).toMatchObject({
      code: "too_many_open_checkouts",
      limit: 3,
    });
    // Nothing was reserved for the refused one.
    expect(await db().checkout.count({ where: { clientId: partner.client.id } })).toBe(1);
    expect((await checkoutOf(await (await createPartner()).token(), 2)).response.status).toBe(201);
    expect((await checkoutOf(token, 1)).response.status).toBe(201);

    const firstId = JSON.parse(first.text).checkout_id;
    expect(
      (
        await callRoute(cancelRoute, {
          method: "POST",
          path: `/checkout/sessions/${firstId}/cancel`,
          token,
          params: { checkout_id: firstId },
        })
      ).status,
    ).toBe(200);
    // The refusal was not stored under its key: the same request with the same key now runs.
    const retried = await createCheckoutVia(token, refusedBody, key);
    expect(retried.response.status).toBe(201);
    expect(retried.response.headers.get("idempotent-replayed")).toBeNull();
  });
});

const connect = async (headers: Record<string, string> = {}) => {
  const client = new Client({ name: "caps-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as {
    code: string;
    message: string;
    retry_after: number;
    limit: number;
  };
};
const mcpCheckout = async (client: Client) => {
  const item = await createItem({ storeId, priceCents: 2_000 });
  const quote = await call(client, "create_quote", {
    items: [{ item_id: item.id }],
    shipping_address: torontoAddress,
  });
  return call(client, "create_checkout", {
    quote_id: (quote.structuredContent as { quote_id: string }).quote_id,
    email: "mcp-caps@example.ca",
  });
};

describe("the public MCP connector's open checkouts", () => {
  it(`at most ${openCheckoutsPerSession} per session: the next is too_many_open_checkouts with retry_after; another session may still`, async () => {
    const session = await connect();
    for (let index = 0; index < openCheckoutsPerSession; index++)
      expect((await mcpCheckout(session)).isError ?? false).toBe(false);
    const refused = errorOf(await mcpCheckout(session));
    expect(refused).toMatchObject({
      code: "too_many_open_checkouts",
      limit: openCheckoutsPerSession,
    });
    expect(refused.retry_after).toBeGreaterThan(0);
    expect((await mcpCheckout(await connect())).isError ?? false).toBe(false);
  });

  it("at most MCP_OPEN_CHECKOUTS_PER_ADDRESS per address, whatever the session; another address may still", async () => {
    useEnv({ MCP_OPEN_CHECKOUTS_PER_ADDRESS: "2", TRUST_PROXY: "1" });
    const from = (address: string) => connect({ "x-forwarded-for": address });
    expect((await mcpCheckout(await from("203.0.113.7"))).isError ?? false).toBe(false);
    expect((await mcpCheckout(await from("203.0.113.7"))).isError ?? false).toBe(false);
    const refused = errorOf(await mcpCheckout(await from("203.0.113.7")));
    expect(refused).toMatchObject({ code: "too_many_open_checkouts", limit: 2 });
    expect(refused.message).toContain("address");
    expect((await mcpCheckout(await from("198.51.100.9"))).isError ?? false).toBe(false);
  });
});
