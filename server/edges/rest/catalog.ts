/** The catalogue operations (procedures in server/routers/catalog). */
import { errorResponse } from "./openapi-parts";
import {
  ZGetProductRequest,
  ZGetStoreRequest,
  ZListCategoriesResponse,
  ZPriceHistory,
  ZProductDetail,
  ZSearchProductsRequest,
  ZSearchProductsResponse,
  ZStoreDetail,
} from "../../catalogue";
import { defineOperation } from "./operation";

export const catalogOperations = [
  defineOperation({
    id: "GET /api/v1/products",
    tool: "search_products",
    operationId: "searchProducts",
    procedure: "catalog.searchProducts",
    input: { query: ZSearchProductsRequest, queryArrays: ["size", "color", "brand"] },
    output: ZSearchProductsResponse,
    summary: "Search items for sale",
    description:
      "Only items of stores that are open, can take payment and can ship; sold items never appear. relevance ranks by the words in q (stemmed English full text, title and brand weigh most) and means newest without q. Facets are disjunctive: each is counted over the items matching every filter except its own, so with brand=A the brand facet still lists B and C with the counts adding them would give. Scope catalog:read.",
    call: async ({ caller, query }) => ({ body: await caller.catalog.searchProducts(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/products/{id}",
    tool: "get_product",
    operationId: "getProduct",
    procedure: "catalog.getProduct",
    input: { params: ZGetProductRequest },
    output: ZProductDetail,
    summary: "One item with its variants and images",
    description:
      "A sold item is still answered, with available false on it and on every variant (it has left search). Scope catalog:read.",
    responses: {
      404: errorResponse("No such item, removed, or its store cannot sell now (not_found)"),
    },
    call: async ({ caller, params }) => ({ body: await caller.catalog.getProduct(params) }),
  }),
  defineOperation({
    id: "GET /api/v1/products/{id}/price-history",
    tool: "get_price_history",
    operationId: "getPriceHistory",
    procedure: "catalog.getPriceHistory",
    input: { params: ZGetProductRequest },
    output: ZPriceHistory,
    summary: "An item's price history, its lows and its change from the previous price",
    description:
      "Every price the item has had (oldest first; at most the newest 500 points, `truncated` when older ones were left out), the lowest price in effect in the last 30 and 90 days and since it was listed (always over every change), the price before the latest change and the change from it. A sold item keeps its history. Scope catalog:read.",
    responses: {
      404: errorResponse("No such item, removed, or its store cannot sell now (not_found)"),
    },
    call: async ({ caller, params }) => ({ body: await caller.catalog.getPriceHistory(params) }),
  }),
  defineOperation({
    id: "GET /api/v1/stores/{store_slug}",
    tool: "get_store",
    operationId: "getStore",
    procedure: "catalog.getStore",
    input: { params: ZGetStoreRequest },
    output: ZStoreDetail,
    summary: "A store, its free-shipping offer and shipping services",
    responses: { 404: errorResponse("No such store (not_found)") },
    call: async ({ caller, params }) => ({ body: await caller.catalog.getStore(params) }),
  }),
  defineOperation({
    id: "GET /api/v1/categories",
    tool: "list_categories",
    operationId: "listCategories",
    procedure: "catalog.listCategories",
    input: {},
    output: ZListCategoriesResponse,
    summary: "The category tree with listed item counts",
    call: async ({ caller }) => ({ body: await caller.catalog.listCategories() }),
  }),
];
