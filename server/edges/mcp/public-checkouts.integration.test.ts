/**
 * The public connector's checkouts belong to the MCP session that made them (L11): a caller without
 * a session makes none and finds none, and another session's checkout is not_found, never 403.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { torontoAddress } from "../../testing/checkout-fixtures";
import { startConnectorServer } from "../../testing/mcp-server";

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

const connect = async (headers: Record<string, string> = {}) => {
  const client = new Client({ name: "public-checkouts-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
/** A tool error's body (the REST error body), or a success's structured content. */
const bodyOf = (result: CallToolResult) =>
  (result.isError
    ? JSON.parse((result.content[0] as { text: string }).text)
    : result.structuredContent!) as {
    error: { code: string; message: string };
    quote_id: string;
    checkout_id: string;
    status: string;
  };

/** One tools/call with no Mcp-Session-Id (stateless mode answers it without initialize). */
const callWithoutSession = async (name: string, args: Record<string, unknown>) => {
  const response = await fetch(`${server.base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: CallToolResult }).result;
};

const newCheckout = async (client: Client) => {
  const item = await createItem({ storeId, priceCents: 3_000 });
  const quote = bodyOf(
    await call(client, "create_quote", {
      items: [{ item_id: item.id }],
      shipping_address: torontoAddress,
    }),
  );
  return bodyOf(
    await call(client, "create_checkout", {
      quote_id: quote.quote_id,
      email: "mcp-owner@example.ca",
    }),
  ).checkout_id as string;
};

describe("public checkouts belong to their MCP session (L11)", () => {
  it("without a session: no quote, no checkout, and nobody's checkout found (not_found, never 403)", async () => {
    const item = await createItem({ storeId, priceCents: 3_000 });
    const quoted = await callWithoutSession("create_quote", {
      items: [{ item_id: item.id }],
      shipping_address: torontoAddress,
    });
    expect(quoted.isError).toBe(true);
    expect(bodyOf(quoted).error).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("Mcp-Session-Id"),
    });
    // The catalogue needs no session.
    expect((await callWithoutSession("get_product", { id: item.id })).isError ?? false).toBe(false);

    const owner = await connect();
    const checkoutId = await newCheckout(owner);
    for (const tool of ["get_checkout", "cancel_checkout"]) {
      const answer = await callWithoutSession(tool, { checkout_id: checkoutId });
      expect(bodyOf(answer).error.code, tool).toBe("not_found");
    }
    const stranger = await connect();
    for (const tool of ["get_checkout", "cancel_checkout"])
      expect(bodyOf(await call(stranger, tool, { checkout_id: checkoutId })).error.code, tool).toBe(
        "not_found",
      );
    expect((await db().checkout.findUniqueOrThrow({ where: { id: checkoutId } })).status).toBe(
      "awaiting_payment",
    );
    expect(bodyOf(await call(owner, "cancel_checkout", { checkout_id: checkoutId })).status).toBe(
      "cancelled",
    );
  });
});
