/**
 * Every MCP tool, in one list. Each entry is the REST operation of the same name (`operation`,
 * method and OpenAPI path): the same zod schemas (arguments are named as the REST parameters and
 * body fields), the same procedure through the caller, so the same rules, results and error codes.
 * Nothing here is a rule: `call` only hands the parsed arguments to the procedure, and `text` only
 * renders its answer for a person. When the operation table lands, each entry's operation,
 * scope and schemas come from it and this list keeps only name, annotations, call and text.
 */
import type { z } from "zod";
import { ZMeResponse, ZNoQuery } from "../routers/account/account.schema";
import { ZGetProductRequest, ZGetStoreRequest, ZListCategoriesResponse, ZProductDetail, ZSearchProductsRequest, ZSearchProductsResponse, ZStoreDetail } from "../routers/catalog/catalog.schema";
import { ZCreateQuoteRequest, ZQuote } from "../routers/checkout/checkout.schema";
import { ZCheckout, ZCheckoutDetail, ZCheckoutIdParams, ZCreateCheckoutBody, ZIdempotencyKey } from "../routers/checkout/session.schema";
import { ZCanadianAddressResponse } from "../domain/address";
import { ZGetMyOrderRequest, ZListMyOrdersRequest, ZListMyOrdersResponse, ZOrder } from "../routers/orders/orders.schema";
import type { Caller } from "../trpc/caller";

/** Which connector lists a tool: "public" tools are on both, "account" tools only on /mcp/account. */
export type ToolConnector = "public" | "account";

export type ToolAnnotations = { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };

/** What a tool call gets besides its arguments: the caller, and for create_checkout the derived key. */
export type ToolCall = { caller: Caller; idempotencyKey: (args: unknown) => string };

export type ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  /** The REST operation this tool is: method and path as in the OpenAPI document. */
  operation: `${"GET" | "POST"} /api/v1/${string}`;
  connector: ToolConnector;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  call: (args: z.output<I>, call: ToolCall) => Promise<z.output<O>>;
  /** A short rendering an assistant can show a person. */
  text: (result: z.output<O>) => string;
};

const tool = <I extends z.ZodType, O extends z.ZodType>(definition: ToolDefinition<I, O>) => definition as unknown as ToolDefinition;

const read: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates something new (a quote each call). */
const creates: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Creates something once per idempotency key. */
const createsOnce: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Ends something (cancelling twice is the same as once). */
const ends: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const money = (value: { amount: string; currency: string }) => `${value.amount} ${value.currency}`;

/** create_checkout: the REST body plus the Idempotency-Key header as an optional argument. */
const ZCreateCheckoutToolInput = ZCreateCheckoutBody.extend({
  idempotency_key: ZIdempotencyKey.optional().meta({
    description: "Up to 64 characters of A-Z, a-z, 0-9, _ and -. The same key returns the same checkout. Leave it out and the connector derives one from this session and these arguments, so a retried call never makes a second checkout.",
  }),
});

export const tools: ToolDefinition[] = [
  tool({
    name: "search_products",
    title: "Search items for sale",
    operation: "GET /api/v1/products",
    connector: "public",
    description:
      "Searches items for sale in Canadian stores (prices in CAD). Filters: q (free text), category (a path from list_categories), size/color/brand (lists, any of), store (slug), min_price/max_price (CAD, e.g. \"49.99\"), sort, page (1-2000), per_page (1-48, default 24). Each result's id is the item_id for get_product and create_quote.",
    input: ZSearchProductsRequest,
    output: ZSearchProductsResponse,
    annotations: read,
    call: (args, { caller }) => caller.catalog.searchProducts(args),
    text: (result) =>
      [
        `${result.pagination.total} items (page ${result.pagination.page} of ${result.pagination.last_page}).`,
        ...result.data.slice(0, 10).map((item) => `- #${item.id} ${item.title}: ${money(item.price)} (${item.store.name})${item.sizes.length ? `, sizes ${item.sizes.join(", ")}` : ""}`),
      ].join("\n"),
  }),
  tool({
    name: "get_product",
    title: "One item",
    operation: "GET /api/v1/products/{id}",
    connector: "public",
    description: "One item with its variants (sizes and colours) and images. id is an item id from search_products.",
    input: ZGetProductRequest,
    output: ZProductDetail,
    annotations: read,
    call: (args, { caller }) => caller.catalog.getProduct(args),
    text: (item) => `#${item.id} ${item.title}: ${money(item.price)} at ${item.store.name}. ${item.available ? "Available" : "Not available"}; sizes: ${item.sizes.join(", ") || "one size"}. ${item.url}`,
  }),
  tool({
    name: "get_store",
    title: "A store",
    operation: "GET /api/v1/stores/{store_slug}",
    connector: "public",
    description: "A store's details: its free-shipping offer (spend the threshold in its items and shipping is free) and shipping services. store_slug is item.store.slug from search_products or get_product.",
    input: ZGetStoreRequest,
    output: ZStoreDetail,
    annotations: read,
    call: (args, { caller }) => caller.catalog.getStore(args),
    text: (store) =>
      `${store.name} (${store.province}): ${store.open_for_orders ? "open for orders" : "not taking orders"}. ${store.free_shipping ? `Free shipping from ${money(store.free_shipping.threshold)}.` : "No free-shipping offer."} Shipping: ${store.shipping_services.map((service) => `${service.label} (${service.min_days}-${service.max_days} days)`).join(", ")}.`,
  }),
  tool({
    name: "list_categories",
    title: "Categories",
    operation: "GET /api/v1/categories",
    connector: "public",
    description: "The category tree with listed item counts. Pass a path as the category filter of search_products.",
    input: ZNoQuery,
    output: ZListCategoriesResponse,
    annotations: read,
    call: (_args, { caller }) => caller.catalog.listCategories(),
    text: (result) => (result.data.length ? result.data.map((node) => `- ${node.path} (${node.item_count})`).join("\n") : "No categories yet."),
  }),
  tool({
    name: "create_quote",
    title: "Price an order",
    operation: "POST /api/v1/checkout/quotes",
    connector: "public",
    description:
      "Prices items for a Canadian shipping address: shipping options and tax per store, totals in CAD. items: item_id from search_products, size as listed in the item's variants (optional for one-variant items), quantity 1-10. The quote expires (expires_at); pass its quote_id to create_checkout.",
    input: ZCreateQuoteRequest,
    output: ZQuote,
    annotations: creates,
    call: (args, { caller }) => caller.checkout.createQuote(args),
    text: (quote) =>
      [
        `Quote ${quote.quote_id}: ${money(quote.totals.grand_total)} in total (items ${money(quote.totals.subtotal)}, shipping ${money(quote.totals.shipping)}, tax ${money(quote.totals.tax)}); valid until ${quote.expires_at}.`,
        ...quote.unavailable_items.map((item) => `- item #${item.item_id} cannot be bought: ${item.reason}`),
      ].join("\n"),
  }),
  tool({
    name: "create_checkout",
    title: "Create a checkout link",
    operation: "POST /api/v1/checkout/sessions",
    connector: "public",
    description:
      "Turns a quote (quote_id from create_quote) into a checkout link valid 30 minutes and reserves its items. The person opens checkout_url to review and pay themselves; nothing is charged here. email receives the confirmation and tracking. shipping_selections maps a store slug to a shipping option key of the quote (default: the cheapest).",
    input: ZCreateCheckoutToolInput,
    output: ZCheckout,
    annotations: createsOnce,
    call: async (args, { caller, idempotencyKey }) =>
      (await caller.checkout.createSession({ ...args, idempotency_key: args.idempotency_key ?? idempotencyKey(args) })).checkout,
    text: (checkout) => `Checkout ${checkout.checkout_id} for ${money(checkout.totals.grand_total)}: the person pays at ${checkout.checkout_url} before ${checkout.expires_at}.`,
  }),
  tool({
    name: "get_checkout",
    title: "Follow a checkout",
    operation: "GET /api/v1/checkout/sessions/{checkout_id}",
    connector: "public",
    description: "A checkout's status (awaiting_payment, paid, cancelled, expired), and once paid its order number and each store's tracking. checkout_id comes from create_checkout.",
    input: ZCheckoutIdParams,
    output: ZCheckoutDetail,
    annotations: read,
    call: (args, { caller }) => caller.checkout.getSession(args),
    text: (checkout) => `Checkout ${checkout.checkout_id} is ${checkout.status}${checkout.order_number ? `, order ${checkout.order_number}` : ""}; total ${money(checkout.totals.grand_total)}.`,
  }),
  tool({
    name: "cancel_checkout",
    title: "Cancel a checkout",
    operation: "POST /api/v1/checkout/sessions/{checkout_id}/cancel",
    connector: "public",
    description: "Cancels an unpaid checkout and frees its items at once; the link stops working. checkout_id comes from create_checkout.",
    input: ZCheckoutIdParams,
    output: ZCheckout,
    annotations: ends,
    call: (args, { caller }) => caller.checkout.cancelSession(args),
    text: (checkout) => `Checkout ${checkout.checkout_id} is ${checkout.status}.`,
  }),
  tool({
    name: "get_me",
    title: "The signed-in person",
    operation: "GET /api/v1/me",
    connector: "account",
    description: "The signed-in person's name, email and saved sizes. Pass the sizes as the size filter of search_products.",
    input: ZNoQuery,
    output: ZMeResponse,
    annotations: read,
    call: (_args, { caller }) => caller.account.getMe(),
    text: (me) => `${me.name ?? "(no name)"} <${me.email}>; saved sizes: ${me.sizes.join(", ") || "none"}.`,
  }),
  tool({
    name: "get_my_shipping_address",
    title: "The person's shipping address",
    operation: "GET /api/v1/me/shipping-address",
    connector: "account",
    description: "The signed-in person's saved Canadian shipping address, ready to pass as shipping_address to create_quote. not_found when none is saved.",
    input: ZNoQuery,
    output: ZCanadianAddressResponse,
    annotations: read,
    call: (_args, { caller }) => caller.account.getShippingAddress(),
    text: (address) => `${address.name}, ${address.line1}${address.line2 ? `, ${address.line2}` : ""}, ${address.city} ${address.province} ${address.postal_code}`,
  }),
  tool({
    name: "list_my_orders",
    title: "The person's orders",
    operation: "GET /api/v1/me/orders",
    connector: "account",
    description: "The signed-in person's orders, newest first, one per store, with fulfilment and tracking. page from 1, per_page 1-50 (default 20).",
    input: ZListMyOrdersRequest,
    output: ZListMyOrdersResponse,
    annotations: read,
    call: (args, { caller }) => caller.orders.listMyOrders(args),
    text: (result) =>
      [
        `${result.pagination.total} orders.`,
        ...result.data.map((order) => `- ${order.order_number} (${order.store.name}): ${money(order.totals.grand_total)}, ${order.fulfilment}${order.tracking ? `, ${order.tracking.carrier} ${order.tracking.tracking_number}` : ""}`),
      ].join("\n"),
  }),
  tool({
    name: "get_my_order",
    title: "One of the person's orders",
    operation: "GET /api/v1/me/orders/{order_number}",
    connector: "account",
    description: "One of the signed-in person's orders with its items, totals and tracking. order_number comes from list_my_orders.",
    input: ZGetMyOrderRequest,
    output: ZOrder,
    annotations: read,
    call: (args, { caller }) => caller.orders.getMyOrder(args),
    text: (order) => `Order ${order.order_number} (${order.store.name}): ${money(order.totals.grand_total)}, ${order.fulfilment}${order.tracking ? `, ${order.tracking.carrier} ${order.tracking.tracking_number}` : ""}.`,
  }),
];

/** The tools a connector lists: the public ones everywhere, the account ones on /mcp/account only. */
export const toolsOf = (connector: ToolConnector) => tools.filter((entry) => connector === "account" || entry.connector === "public");
