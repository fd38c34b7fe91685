/**
 * The MCP tools are the operation table's tool entries: each connector lists exactly the table's
 * entries for it, every tool's argument and result schemas are its entry's (the same JSON Schema per
 * argument, the same required list, the same result schema object), its scope is the entry's, and
 * arguments are parsed with the entry's own checks.
 */
import { describe, expect, it } from "vitest";
import { type Operation, scopeOf } from "../rest/operation";
import { toolOperations } from "../rest/operations";
import { partnerCaller } from "../../testing/callers";
import { runTool } from "./connector";
import { toolJsonSchema } from "./json-schema";
import { presentedTools, scopesOf, toolsOf, tools } from "./tools";

const names = (list: { name: string }[]) => list.map((entry) => entry.name).sort();
const entryOf = (name: string) => toolOperations().find((entry) => entry.tool === name)!;

/** The JSON Schema properties and required names of the entry's params, query and body together. */
const restArguments = (entry: Operation) => {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const part of [entry.input.params, entry.input.query, entry.input.body]) {
    if (!part) continue;
    const schema = toolJsonSchema(part, "input");
    Object.assign(properties, schema.properties ?? {});
    required.push(...(schema.required ?? []));
  }
  return { properties, required };
};

const errorBody = (result: Awaited<ReturnType<typeof runTool>>) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as {
    code: string;
    fields?: Record<string, string>;
  };
};
const noKey = () => {
  throw new Error("the key is derived only for a call that gets past parsing");
};

describe("MCP tools from the operation table", () => {
  it("lists on each connector exactly the table's tool entries for it: partner entries on both, person entries on /mcp/account only", () => {
    const table = toolOperations();
    expect(names(toolsOf("account"))).toEqual(table.map((entry) => entry.tool).sort());
    expect(names(toolsOf("public"))).toEqual(
      table
        .filter((entry) => entry.meta.caller === "partner")
        .map((entry) => entry.tool)
        .sort(),
    );
    expect(names(toolsOf("public"))).toEqual([
      "cancel_checkout",
      "create_checkout",
      "create_quote",
      "get_checkout",
      "get_price_history",
      "get_product",
      "get_store",
      "list_categories",
      "search_products",
    ]);
    expect([...presentedTools].sort()).toEqual(names(tools));
  });

  it("takes each tool's operation, scope, summary and result schema from its entry", () => {
    for (const tool of tools) {
      const entry = entryOf(tool.name);
      expect(tool.operation).toBe(entry.id);
      expect(tool.scope, tool.name).toBe(scopeOf(entry));
      expect(tool.description.startsWith(`${entry.summary}. `), tool.name).toBe(true);
      // The very schema object, so the result is validated and described as the REST body is.
      expect(tool.output, tool.name).toBe(entry.output);
      // preview_price_watch is a POST (it takes a watch body) that writes nothing (ADR 0116).
      const readsOnly = entry.method === "GET" || tool.name === "preview_price_watch";
      expect(tool.annotations.readOnlyHint, tool.name).toBe(readsOnly);
    }
  });

  it("describes each tool's arguments as its entry's path, query and body fields (same JSON Schema each), plus Idempotency-Key as optional idempotency_key", () => {
    for (const tool of tools) {
      const entry = entryOf(tool.name);
      const listed = toolJsonSchema(tool.input, "input");
      const rest = restArguments(entry);
      const headerArguments = entry.input.headers ? ["idempotency_key"] : [];
      expect(Object.keys(listed.properties ?? {}).sort(), tool.name).toEqual(
        [...Object.keys(rest.properties), ...headerArguments].sort(),
      );
      for (const [name, schema] of Object.entries(rest.properties))
        expect(listed.properties?.[name], `${tool.name}.${name}`).toEqual(schema);
      expect([...(listed.required ?? [])].sort(), tool.name).toEqual([...rest.required].sort());
      expect(toolJsonSchema(tool.output, "output"), tool.name).toEqual(
        toolJsonSchema(entry.output!, "output"),
      );
    }
  });

  it("needs, per connector, the scopes its tools' entries declare", () => {
    expect(scopesOf("public").sort()).toEqual(["catalog:read", "checkout:write"]);
    expect(scopesOf("account").sort()).toEqual([
      "address:read",
      "alerts:write",
      "catalog:read",
      "checkout:write",
      "orders:read",
      "profile:read",
    ]);
  });

  it("parses arguments with the entry's own checks (refinements, strictness, header format) and calls the entry's procedure", async () => {
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const call = { caller: partnerCaller(), requestId: "req_tools_test", idempotencyKey: noKey };
    expect(
      errorBody(
        await runTool(byName.search_products, { min_price: "50.00", max_price: "10.00" }, call),
      ),
    ).toMatchObject({
      code: "invalid_request",
      fields: { max_price: "must be at least min_price" },
    });
    expect(
      errorBody(
        await runTool(
          byName.create_checkout,
          { quote_id: "quo_1", email: "a@example.ca", extra: 1 },
          call,
        ),
      ).code,
    ).toBe("invalid_request");
    expect(
      errorBody(
        await runTool(
          byName.create_checkout,
          { quote_id: "quo_1", email: "a@example.ca", idempotency_key: "bad key!" },
          call,
        ),
      ).fields,
    ).toHaveProperty("idempotency_key");
    expect(errorBody(await runTool(byName.list_categories, { depth: 2 }, call)).code).toBe(
      "invalid_request",
    );
    // Past parsing, the entry's call runs the procedure, whose scope check is the entry's.
    const unscoped = { ...call, caller: partnerCaller(["catalog:read"]) };
    expect(
      errorBody(await runTool(byName.cancel_checkout, { checkout_id: "chk_1" }, unscoped)).code,
    ).toBe("insufficient_scope");
  });
});
