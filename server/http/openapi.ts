/**
 * The OpenAPI 3.1 document, built from the same zod schemas the procedures validate with. Every
 * REST route must appear here (openapi.test.ts checks the app/api/v1 folder against `paths`).
 */
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { env } from "../env";
import {
  ZGetProductRequest, ZGetStoreRequest, ZListCategoriesResponse, ZProductDetail, ZSearchProductsRequest, ZSearchProductsResponse, ZStoreDetail,
} from "../routers/catalog/catalog.schema";

const ZError = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Stable snake_case code; treat unknown codes as other" }),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional().meta({ description: "Only on 422: field name to the reason" }),
    }),
  })
  .meta({ id: "Error" });

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: ZError } } });
const commonErrors = {
  401: errorResponse("Missing, invalid, expired or revoked access token (WWW-Authenticate: Bearer)"),
  403: errorResponse("The token lacks the scope (insufficient_scope)"),
  422: errorResponse("Invalid request; fields names each bad field (invalid_request)"),
  429: errorResponse("Rate limit reached; retry after Retry-After seconds (rate_limited)"),
  503: errorResponse("A dependency is briefly unavailable; retry after Retry-After seconds (unavailable)"),
};
const ok = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });

let cached: ReturnType<typeof createDocument> | undefined;

export const openApiDocument = () =>
  (cached ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "Shopping API",
      version: "1.6.0",
      description:
        "Search the catalogue of independent Canadian fashion stores, price orders and create hosted checkout links. Money is a two-decimal string in CAD. Errors share one body: {error: {code, message, fields?}}. Every response carries X-Request-Id; partner responses carry RateLimit-Policy, RateLimit, RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (120 a minute and 3,000 an hour per client).",
    },
    servers: [{ url: `${env().PUBLIC_URL}/api/v1` }],
    components: {
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: `${env().PUBLIC_URL}/oauth/token`, scopes: { "catalog:read": "Search items; read item and store details", "checkout:write": "Create quotes and checkouts" } } },
        },
      },
    },
    security: [{ oauth2: [] }],
    paths: {
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
    },
  }));
