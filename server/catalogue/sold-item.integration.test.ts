/**
 * An item sold elsewhere (the store's own shop; the sandbox's `sandbox:item-sold`) reads the same
 * everywhere: GET /products/{id} and the MCP tool get_product still answer it (ADR 0040: a sold item
 * of a listed store stays readable) but as not available, nor any of its variants; the sandbox price
 * helper refuses it as an item not for sale (404 not_found), writing nothing.
 */
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { callRoute } from "../testing/rest";
import { operationHandler } from "../edges/rest/rest-router";
import { partnerCaller } from "../testing/callers";
import { tools } from "../edges/mcp/tools";
import { markItemSold } from "./store/stock";
import { poolSql } from "../platform/sql";

const soldItem = async () => {
  const store = await createStore();
  const item = await createItem({ storeId: store.id, priceCents: 5000, sizes: ["S", "M"] });
  expect(await markItemSold(poolSql, item.id, new Date())).toBe(true);
  return item;
};

describe("an item sold elsewhere", () => {
  it("is answered by GET /products/{id} as not available, nor any variant", async () => {
    const item = await soldItem();
    const token = await (await createPartner({ scopes: ["catalog:read"] })).token();
    const answer = await callRoute(operationHandler("GET /api/v1/products/{id}"), {
      path: `/products/${item.id}`,
      token,
      params: { id: String(item.id) },
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({ id: item.id, available: false });
    expect(body.variants).toHaveLength(2);
    expect(body.variants.every((variant: { available: boolean }) => !variant.available)).toBe(true);
  });

  it("is 'Not available' in the MCP tool get_product", async () => {
    const item = await soldItem();
    const tool = tools.find((entry) => entry.name === "get_product")!;
    const result = await tool.call(tool.input.parse({ id: item.id }) as Record<string, unknown>, {
      caller: partnerCaller(["catalog:read"]),
      idempotencyKey: () => "unused",
    });
    expect(tool.text(result)).toContain("Not available");
  });

  it("is refused by the sandbox price helper (404 not_found), with no price or event written", async () => {
    const item = await soldItem();
    const token = await (await createPartner({ scopes: ["catalog:read"] })).token();
    const answer = await callRoute(operationHandler("POST /api/v1/sandbox/items/{item_id}/price"), {
      method: "POST",
      path: `/sandbox/items/${item.id}/price`,
      token,
      body: { price: "12.34" },
      params: { item_id: String(item.id) },
    });
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.code).toBe("not_found");
    const after = await db().item.findUniqueOrThrow({ where: { id: item.id } });
    expect(after.priceCents).toBe(5000);
    expect(await db().priceChangeEvent.count({ where: { itemId: item.id, kind: "price" } })).toBe(
      0,
    );
  });
});
