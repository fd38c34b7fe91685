/** OpenAPI paths of the linked-account endpoints (/me/orders belongs to the orders resource). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ZCanadianAddressResponse } from "../../domain/address";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZMeResponse } from "./account.schema";

const linkedOnly = "Needs an access token the person granted by linking their account (authorization code); a client-credentials token gets 403.";

export const accountPaths: ZodOpenApiPathsObject = {
  "/me": {
    get: {
      operationId: "getMe",
      summary: "The linked person's name, email and saved sizes",
      description: `Scope profile:read. ${linkedOnly} Saved sizes are as the person typed them; pass them as size filters of GET /products.`,
      security: [{ oauth2: ["profile:read"] }],
      responses: { 200: ok(ZMeResponse), ...commonErrors },
    },
  },
  "/me/shipping-address": {
    get: {
      operationId: "getMyShippingAddress",
      summary: "The linked person's saved shipping address",
      description: `Scope address:read. ${linkedOnly} Canadian addresses only; postal_code is formatted A1A 1A1.`,
      security: [{ oauth2: ["address:read"] }],
      responses: { 200: ok(ZCanadianAddressResponse), 404: errorResponse("No address is saved on this account (not_found)"), ...commonErrors },
    },
  },
};
