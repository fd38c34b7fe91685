/**
 * Every whole number in a path is decimal digits, as every whole number elsewhere in a request
 * (server/core/zod.ts): "0x10", "1e3", " 12" and "" are 422, never item 16 or 1000. Checked over the
 * operation table (each path parameter the OpenAPI document types integer), over REST for an item
 * and a price watch, and over MCP's get_product; the document keeps each one `required` and
 * `type: integer`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { callRoute } from "../../testing/rest";
import { tools } from "../mcp/tools";
import { toAppError } from "../../platform/http/respond";
import { openApiDocument } from "./openapi";
import { operations } from "./operations";
import { operationHandler } from "./rest-router";

type Parameter = { in: string; name: string; required?: boolean; schema?: { type?: string } };

/** Each operation's path parameters as the document states them. */
const pathParameters = () => {
  const paths = openApiDocument().paths as Record<
    string,
    Record<string, { parameters?: Parameter[] }>
  >;
  return operations.map((entry) => {
    const [method, path] = entry.id.split(" ");
    const operation = paths[path.replace(/^\/api\/v1/, "")][method.toLowerCase()];
    return {
      entry,
      parameters: (operation.parameters ?? []).filter((parameter) => parameter.in === "path"),
    };
  });
};

const notDigits = ["0x10", "1e3", " 12", "12 ", "", "+5", "1.0", "١٢"];

describe("whole numbers in paths", () => {
  it("are typed integer and required in the document, and only decimal digits are read as one", () => {
    const integers = pathParameters().flatMap(({ entry, parameters }) =>
      parameters
        .filter((parameter) => parameter.schema?.type === "integer")
        .map((parameter) => ({ entry, parameter })),
    );
    // The item's two paths and a price watch's (read and cancel) at least.
    expect(integers.map(({ entry }) => entry.id)).toEqual(
      expect.arrayContaining([
        "GET /api/v1/products/{id}",
        "GET /api/v1/products/{id}/price-history",
        "GET /api/v1/price-watches/{price_watch_id}",
        "DELETE /api/v1/price-watches/{price_watch_id}",
      ]),
    );
    for (const { entry, parameter } of integers) {
      expect(parameter.required, `${entry.id} ${parameter.name}`).toBe(true);
      const params = entry.input.params as z.ZodType;
      expect(params.parse({ [parameter.name]: "16" }), entry.id).toEqual({ [parameter.name]: 16 });
      for (const raw of notDigits)
        expect(
          params.safeParse({ [parameter.name]: raw }).success,
          `${entry.id} ${JSON.stringify(raw)}`,
        ).toBe(false);
    }
  });

  it("GET /products/0x10 and /products/1e3 are 422, /products/{digits} the item", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id });
    const token = await (await createPartner({ scopes: ["catalog:read"] })).token();
    const get = (id: string) =>
      callRoute(operationHandler("GET /api/v1/products/{id}"), {
        path: `/products/${id}`,
        token,
        params: { id },
      });
    expect((await get(String(item.id))).status).toBe(200);
    for (const id of [`0x${item.id.toString(16)}`, "1e3"]) {
      const answer = await get(id);
      expect(answer.status, id).toBe(422);
      expect((await answer.json()).error).toMatchObject({
        code: "invalid_request",
        fields: { id: "must be a whole number" },
      });
    }
  });

  it('MCP get_product {id: "0x10"} is invalid_request; {id: 16} and {id: "16"} are read', async () => {
    const tool = tools.find((entry) => entry.name === "get_product")!;
    expect(tool.input.safeParse({ id: 16 }).success).toBe(true);
    expect(tool.input.safeParse({ id: "16" }).success).toBe(true);
    const refused = tool.input.safeParse({ id: "0x10" });
    expect(refused.success).toBe(false);
    expect(toAppError(refused.error)).toMatchObject({
      code: "invalid_request",
      options: { fields: { id: "must be a whole number" } },
    });
  });
});
