/** OpenAPI paths of the sandbox helpers (sandbox environment only). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZCheckout, ZCheckoutIdParams, ZStoreOrder } from "../checkout/session.schema";
import { ZPurchase, ZPurchaseIdParams } from "../purchases/purchase.schema";
import { ZItemIdParams, ZItemPriceChange, ZResolvePurchaseBody, ZSetItemPriceBody, ZShipOrderBody, ZShipOrderParams } from "./sandbox.schema";

const security = [{ oauth2: ["checkout:write"] }];
const purchaseSecurity = [{ oauth2: ["purchase:write"] }];
const noPurchase = errorResponse("No such purchase of yours, or not the sandbox (not_found)");

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
  "/sandbox/purchases/{purchase_id}/advance": {
    post: {
      operationId: "sandboxAdvancePurchase",
      summary: "Sandbox: move one of your held purchases to its charge time now and charge it",
      description:
        "charges_at and cancel_until move to now and the charge runs as it would at charges_at: the purchase ends paid with charges_at null, or cancelled with error.code item_sold (an item sold elsewhere) or notice_undelivered (the copy email was not delivered). A purchase that is not held is answered as it is.",
      security: purchaseSecurity,
      requestParams: { path: ZPurchaseIdParams },
      responses: { 200: ok(ZPurchase), 404: noPurchase, ...commonErrors },
    },
  },
  "/sandbox/purchases/{purchase_id}/resolve": {
    post: {
      operationId: "sandboxResolvePurchase",
      summary: "Sandbox: give the bank's late answer to one of your processing purchases",
      description:
        "For a purchase left processing by the late test card 4000 0000 0000 0408: authorized records the hold (status held, charges_at 24 hours from now, the copy email sent), declined makes it requires_person with error.code card_declined; nothing is charged. A purchase that is not processing is answered as it is.",
      security: purchaseSecurity,
      requestParams: { path: ZPurchaseIdParams },
      requestBody: { required: true, content: { "application/json": { schema: ZResolvePurchaseBody } } },
      responses: { 200: ok(ZPurchase), 404: noPurchase, ...commonErrors },
    },
  },
  "/sandbox/items/{item_id}/price": {
    post: {
      operationId: "sandboxSetItemPrice",
      summary: "Sandbox: change an item's price, as a store edit would",
      description:
        "The new price is recorded with a price-change event in one transaction; live price watches (and alerts) on the item are evaluated from it within seconds. Setting the price it already has records nothing (changed: false). Any sandbox client token (catalog:read).",
      security: [{ oauth2: ["catalog:read"] }],
      requestParams: { path: ZItemIdParams },
      requestBody: { required: true, content: { "application/json": { schema: ZSetItemPriceBody } } },
      responses: { 200: ok(ZItemPriceChange), 404: errorResponse("No such item for sale, or not the sandbox (not_found)"), ...commonErrors },
    },
  },
};
