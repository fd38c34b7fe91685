/**
 * GET /purchases and the signed-in connector's list_my_purchases: the purchases this assistant made
 * for the token's person, newest first, paged as search is; purchase:write or orders:read admits;
 * another assistant, another person or a token without either scope sees none of them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../prisma/factories";
import { issueAccessToken, mcpAccountAudience } from "../auth/tokens";
import { operationHandler } from "../edges/rest/rest-router";
import { db } from "../platform/db";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { startConnectorServer } from "../testing/mcp-server";
import { callRoute } from "../testing/rest";

const listRoute = operationHandler("GET /api/v1/purchases");
const list = async (token: string, query = "") => {
  const response = await callRoute(listRoute, { path: `/purchases${query}`, token });
  return { status: response.status, body: await response.json() };
};
const tokenFor = async (clientId: string, personId: string, scopes: string[], audience?: string) =>
  (await issueAccessToken(db(), { clientId, personId, scopes, audience, now: new Date() })).token;

let setup: Awaited<ReturnType<typeof agentWithPerson>>;
const bought: string[] = [];
let server: Awaited<ReturnType<typeof startConnectorServer>>;

beforeAll(async () => {
  setup = await agentWithPerson();
  for (let index = 0; index < 3; index++) {
    const quote = await quoteOf(setup.token, [(await directItem(2500 + index)).id]);
    const { status, body } = await buy(setup.token, quote.quote_id);
    expect(status).toBe(201);
    bought.unshift(body.purchase_id);
  }
  server = await startConnectorServer();
}, 120_000);
afterAll(async () => server?.stop());

describe("GET /purchases", () => {
  it("lists this assistant's purchases for the person, newest first, a page at a time", async () => {
    const first = await list(setup.token, "?per_page=2");
    expect(first.status).toBe(200);
    expect(
      first.body.data.map((purchase: { purchase_id: string }) => purchase.purchase_id),
    ).toEqual(bought.slice(0, 2));
    expect(first.body.data[0]).toMatchObject({ status: "held", checkout: null, error: null });
    expect(first.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, last_page: 2 });
    const second = await list(setup.token, "?per_page=2&page=2");
    expect(
      second.body.data.map((purchase: { purchase_id: string }) => purchase.purchase_id),
    ).toEqual(bought.slice(2));
    expect((await list(setup.token)).body.pagination).toEqual({
      page: 1,
      per_page: 24,
      total: 3,
      last_page: 1,
    });
  });

  it("admits orders:read instead of purchase:write; refuses a token with neither", async () => {
    const reader = await tokenFor(setup.agent.id, setup.person.id, ["orders:read"]);
    expect((await list(reader)).body.pagination.total).toBe(3);
    const browser = await tokenFor(setup.agent.id, setup.person.id, ["catalog:read"]);
    const refused = await list(browser);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "insufficient_scope",
      message: "This operation needs the orders:read or purchase:write scope.",
    });
  });

  it("shows another assistant, or the same assistant for another person, none of them", async () => {
    const other = await createAgent();
    const otherToken = await tokenFor(other.id, setup.person.id, ["purchase:write"]);
    expect((await list(otherToken)).body).toEqual({
      data: [],
      pagination: { page: 1, per_page: 24, total: 0, last_page: 1 },
    });
    const stranger = await agentWithPerson();
    expect((await list(stranger.token)).body.pagination.total).toBe(0);
  });

  it("refuses a bad page with the field and why", async () => {
    const { status, body } = await list(setup.token, "?per_page=49");
    expect(status).toBe(422);
    expect(body.error.fields).toEqual({ per_page: "must be at most 48" });
  });
});

describe("list_my_purchases on the signed-in connector", () => {
  it("answers the same purchases as structured content, through the MCP SDK client", async () => {
    const token = await tokenFor(
      setup.agent.id,
      setup.person.id,
      ["catalog:read", "orders:read"],
      mcpAccountAudience,
    );
    const client = new Client({ name: "list-purchases-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.base}/mcp/account`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toContain("list_my_purchases");
      const result = (await client.callTool({
        name: "list_my_purchases",
        arguments: { per_page: 2 },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const content = result.structuredContent as {
        data: { purchase_id: string }[];
        pagination: { total: number };
      };
      expect(content.data.map((purchase) => purchase.purchase_id)).toEqual(bought.slice(0, 2));
      expect(content.pagination.total).toBe(3);
      expect((result.content[0] as { text: string }).text).toContain("3 purchases.");
    } finally {
      await client.close();
    }
  });
});
