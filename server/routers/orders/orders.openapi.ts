/** OpenAPI paths of the person's orders. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZGetMyOrderRequest, ZListMyOrdersRequest, ZListMyOrdersResponse, ZOrder } from "./orders.schema";

export const ordersPaths: ZodOpenApiPathsObject = {
  "/me/orders": {
    get: {
      operationId: "listMyOrders",
      summary: "The linked person's orders and tracking, newest first",
      description:
        "One entry per store order. A checkout created with the person's token joins their account when paid with their account's email. Needs orders:read on a token the person granted (403 for client-credentials tokens).",
      security: [{ oauth2: ["orders:read"] }],
      requestParams: { query: ZListMyOrdersRequest },
      responses: { 200: ok(ZListMyOrdersResponse), ...commonErrors },
    },
  },
  "/me/orders/{order_number}": {
    get: {
      operationId: "getMyOrder",
      summary: "One of the linked person's orders, with its tracking",
      description: "Another person's order, or an unknown number, is 404 not_found. Needs orders:read on a token the person granted (403 for client-credentials tokens).",
      security: [{ oauth2: ["orders:read"] }],
      requestParams: { path: ZGetMyOrderRequest },
      responses: { 200: ok(ZOrder), 404: errorResponse("No such order on this account (not_found)"), ...commonErrors },
    },
  },
};
