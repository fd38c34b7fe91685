/** OpenAPI paths of the person's orders. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, ok } from "../../http/openapi-parts";
import { ZListMyOrdersRequest, ZListMyOrdersResponse } from "./orders.schema";

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
};
