/** OpenAPI paths of the sandbox helpers (sandbox environment only). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZCheckout, ZCheckoutIdParams, ZStoreOrder } from "../checkout/session.schema";
import { ZShipOrderBody, ZShipOrderParams } from "./sandbox.schema";

const security = [{ oauth2: ["checkout:write"] }];

export const sandboxPaths: ZodOpenApiPathsObject = {
  "/sandbox/orders/{order}/ship": {
    post: {
      operationId: "sandboxShipOrder",
      summary: "Sandbox: ship one of your store orders (adds tracking, emails it)",
      security,
      requestParams: { path: ZShipOrderParams },
      requestBody: { required: false, content: { "application/json": { schema: ZShipOrderBody } } },
      responses: { 200: ok(ZStoreOrder), 404: errorResponse("No such order of yours, or not the sandbox (not_found)"), ...commonErrors },
    },
  },
  "/sandbox/checkouts/{checkout_id}/expire": {
    post: {
      operationId: "sandboxExpireCheckout",
      summary: "Sandbox: move one of your checkouts to its due time now (it expires, its items are freed)",
      security,
      requestParams: { path: ZCheckoutIdParams },
      responses: { 200: ok(ZCheckout), 404: errorResponse("No such checkout of yours, or not the sandbox (not_found)"), ...commonErrors },
    },
  },
};
