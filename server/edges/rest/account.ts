/** The linked person's own data (procedures in server/routers/account and server/routers/orders). */
import { ZCanadianAddressResponse } from "../../core/address";
import { errorResponse } from "./openapi-parts";
import { ZMeResponse, ZNoQuery } from "../../accounts";
import {
  ZGetMyOrderRequest,
  ZListMyOrdersRequest,
  ZListMyOrdersResponse,
  ZOrder,
} from "../../orders/index";
import { defineOperation } from "./operation";

const linkedOnly =
  "Needs an access token the person granted by linking their account (authorization code); a client-credentials token gets 403.";

export const accountOperations = [
  defineOperation({
    id: "GET /api/v1/me",
    tool: "get_me",
    operationId: "getMe",
    procedure: "account.getMe",
    input: { query: ZNoQuery },
    output: ZMeResponse,
    summary: "The linked person's name, email and saved sizes",
    description: `Scope profile:read. ${linkedOnly} Saved sizes are as the person typed them; pass them as size filters of GET /products.`,
    call: async ({ caller }) => ({ body: await caller.account.getMe() }),
  }),
  defineOperation({
    id: "GET /api/v1/me/shipping-address",
    tool: "get_my_shipping_address",
    operationId: "getMyShippingAddress",
    procedure: "account.getShippingAddress",
    input: { query: ZNoQuery },
    output: ZCanadianAddressResponse,
    summary: "The linked person's saved shipping address",
    description: `Scope address:read. ${linkedOnly} Canadian addresses only; postal_code is formatted A1A 1A1.`,
    responses: { 404: errorResponse("No address is saved on this account (not_found)") },
    call: async ({ caller }) => ({ body: await caller.account.getShippingAddress() }),
  }),
  defineOperation({
    id: "GET /api/v1/me/orders",
    tool: "list_my_orders",
    operationId: "listMyOrders",
    procedure: "orders.listMyOrders",
    input: { query: ZListMyOrdersRequest },
    output: ZListMyOrdersResponse,
    summary: "The linked person's orders and tracking, newest first",
    description:
      "One entry per store order. A checkout created with the person's token joins their account when paid with their account's email. Needs orders:read on a token the person granted (403 for client-credentials tokens).",
    call: async ({ caller, query }) => ({ body: await caller.orders.listMyOrders(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/me/orders/{order_number}",
    tool: "get_my_order",
    operationId: "getMyOrder",
    procedure: "orders.getMyOrder",
    input: { params: ZGetMyOrderRequest },
    output: ZOrder,
    summary: "One of the linked person's orders, with its tracking",
    description:
      "Another person's order, or an unknown number, is 404 not_found. Needs orders:read on a token the person granted (403 for client-credentials tokens).",
    responses: { 404: errorResponse("No such order on this account (not_found)") },
    call: async ({ caller, params }) => ({ body: await caller.orders.getMyOrder(params) }),
  }),
];
