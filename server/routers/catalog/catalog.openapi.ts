/** OpenAPI paths of the catalogue endpoints. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import {
  ZGetProductRequest, ZGetStoreRequest, ZListCategoriesResponse, ZProductDetail, ZSearchProductsRequest, ZSearchProductsResponse, ZStoreDetail,
} from "./catalog.schema";

export const catalogPaths: ZodOpenApiPathsObject = {
  "/products": {
    get: {
      operationId: "searchProducts",
      summary: "Search items for sale",
      description:
        "Only items of stores that are open, can take payment and can ship; sold items never appear. relevance ranks by the words in q (stemmed English full text, title and brand weigh most) and means newest without q. Facets are disjunctive: each is counted over the items matching every filter except its own, so with brand=A the brand facet still lists B and C with the counts adding them would give. Scope catalog:read.",
      security: [{ oauth2: ["catalog:read"] }],
      requestParams: { query: ZSearchProductsRequest },
      responses: { 200: ok(ZSearchProductsResponse), ...commonErrors },
    },
  },
  "/products/{id}": {
    get: {
      operationId: "getProduct",
      summary: "One item with its variants and images",
      security: [{ oauth2: ["catalog:read"] }],
      requestParams: { path: ZGetProductRequest },
      responses: { 200: ok(ZProductDetail), 404: errorResponse("Not for sale (not_found)"), ...commonErrors },
    },
  },
  "/stores/{store_slug}": {
    get: {
      operationId: "getStore",
      summary: "A store, its free-shipping offer and shipping services",
      security: [{ oauth2: ["catalog:read"] }],
      requestParams: { path: ZGetStoreRequest },
      responses: { 200: ok(ZStoreDetail), 404: errorResponse("No such store (not_found)"), ...commonErrors },
    },
  },
  "/categories": {
    get: {
      operationId: "listCategories",
      summary: "The category tree with listed item counts",
      security: [{ oauth2: ["catalog:read"] }],
      responses: { 200: ok(ZListCategoriesResponse), ...commonErrors },
    },
  },
};
