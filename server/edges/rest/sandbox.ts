/** The sandbox helpers, answering 404 outside the sandbox (procedures in server/routers/sandbox). */
import { errorResponse } from "./openapi-parts";
import { ZCheckout, ZCheckoutIdParams, ZStoreOrder } from "../../checkout";
import { ZPurchase, ZPurchaseIdParams } from "../../purchases";
import {
  ZItemIdParams,
  ZItemPriceChange,
  ZListedItem,
  ZListItemBody,
  ZResolvePurchaseBody,
  ZSetItemPriceBody,
  ZShipOrderBody,
  ZShipOrderParams,
} from "../../sandbox";
import { defineOperation } from "./operation";

const noPurchase = errorResponse("No such purchase of yours, or not the sandbox (not_found)");

export const sandboxOperations = [
  defineOperation({
    id: "POST /api/v1/sandbox/orders/{order}/ship",
    operationId: "sandboxShipOrder",
    procedure: "sandbox.shipOrder",
    input: { params: ZShipOrderParams, body: ZShipOrderBody, bodyRequired: false },
    output: ZStoreOrder,
    summary: "Sandbox: ship one of your store orders (adds tracking, emails it)",
    description:
      "Ships an order of a paid checkout, or of an assistant purchase once its card is charged (advance a held purchase first). An order its store cancelled (refunded in full) never ships: 409 order_cancelled, nothing emailed.",
    responses: {
      404: errorResponse("No such order of yours, or not the sandbox (not_found)"),
      409: errorResponse(
        "order_not_paid: the order's purchase is still held (the person may cancel until charges_at) or was cancelled; order_cancelled: the store cancelled the order (it was refunded and does not ship)",
      ),
    },
    call: async ({ caller, params, body }) => ({
      body: await caller.sandbox.shipOrder({ ...params, ...body }),
    }),
  }),
  defineOperation({
    id: "POST /api/v1/sandbox/checkouts/{checkout_id}/expire",
    operationId: "sandboxExpireCheckout",
    procedure: "sandbox.expireCheckoutNow",
    input: { params: ZCheckoutIdParams },
    output: ZCheckout,
    summary:
      "Sandbox: move one of your checkouts to its due time now (it expires, its items are freed)",
    responses: { 404: errorResponse("No such checkout of yours, or not the sandbox (not_found)") },
    call: async ({ caller, params }) => ({ body: await caller.sandbox.expireCheckoutNow(params) }),
  }),
  defineOperation({
    id: "POST /api/v1/sandbox/purchases/{purchase_id}/advance",
    operationId: "sandboxAdvancePurchase",
    procedure: "sandbox.advancePurchase",
    input: { params: ZPurchaseIdParams },
    output: ZPurchase,
    summary: "Sandbox: move one of your held purchases to its charge time now and charge it",
    description:
      "charges_at and cancel_until move to now and the charge runs as it would at charges_at: the purchase ends paid with charges_at null, or cancelled with error.code item_sold (an item sold elsewhere) or notice_undelivered (the copy email was not delivered). A purchase that is not held is answered as it is.",
    responses: { 404: noPurchase },
    call: async ({ caller, params }) => ({ body: await caller.sandbox.advancePurchase(params) }),
  }),
  defineOperation({
    id: "POST /api/v1/sandbox/purchases/{purchase_id}/resolve",
    operationId: "sandboxResolvePurchase",
    procedure: "sandbox.resolvePurchase",
    input: { params: ZPurchaseIdParams, body: ZResolvePurchaseBody },
    output: ZPurchase,
    summary: "Sandbox: give the bank's late answer to one of your processing purchases",
    description:
      "For a purchase left processing by the late test card 4000 0000 0000 0408: authorized records the hold (status held, charges_at 24 hours from now, the copy email sent), declined makes it requires_person with error.code card_declined; nothing is charged. A purchase that is not processing is answered as it is.",
    responses: { 404: noPurchase },
    call: async ({ caller, params, body }) => ({
      body: await caller.sandbox.resolvePurchase({ ...params, ...body }),
    }),
  }),
  defineOperation({
    id: "POST /api/v1/sandbox/items/{item_id}/price",
    operationId: "sandboxSetItemPrice",
    procedure: "sandbox.setItemPrice",
    input: { params: ZItemIdParams, body: ZSetItemPriceBody },
    output: ZItemPriceChange,
    summary: "Sandbox: change an item's price, as a store edit would",
    description:
      "The new price is recorded with a price-change event in one transaction; live price watches (and alerts) on the item are evaluated from it within seconds. Setting the price it already has records nothing (changed: false). A sold or removed item is not for sale: 404, nothing written. A price is at most 1000000.00 (422 invalid_request naming price); a quote of such items is held to the order bound of POST /checkout/quotes. Any sandbox client token (catalog:read).",
    responses: { 404: errorResponse("No such item for sale, or not the sandbox (not_found)") },
    call: async ({ caller, params, body }) => ({
      body: await caller.sandbox.setItemPrice({ ...params, ...body }),
    }),
  }),
  defineOperation({
    id: "POST /api/v1/sandbox/items",
    operationId: "sandboxListItem",
    procedure: "sandbox.listItem",
    input: { body: ZListItemBody },
    output: ZListedItem,
    status: 201,
    summary: "Sandbox: list a new item in a store, as a store's feed would",
    description:
      "The item, its variants (one per size) and a new-listing catalogue event are written in one transaction; live search watches whose filters it matches react within seconds. Any sandbox client token (catalog:read).",
    responses: {
      404: errorResponse("No such store, or not the sandbox (not_found)"),
    },
    call: async ({ caller, body }) => ({ body: await caller.sandbox.listItem(body), status: 201 }),
  }),
];
