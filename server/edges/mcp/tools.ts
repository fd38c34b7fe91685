/**
 * Every MCP tool, built from the operation table (server/edges/rest/operations.ts): each table entry with a
 * `tool` name is a tool, and its REST operation, argument and result schemas, scope (its procedure's
 * meta), summary and procedure call all come from that entry, so a tool cannot drift from its
 * endpoint. What is here is only what MCP adds: how the entry's input parts become one argument
 * object, which connector lists it (derived from the meta's caller), a display title, annotations for the writes (reads are
 * derived from GET), how the tool chains with the others in tool names, and a text rendering of
 * the result for a person. Nothing here is a rule: `call` only hands the parsed arguments to the
 * entry's call.
 */
import { z } from "zod";
import { type Operation, type OperationId, scopeOf } from "../rest/operation";
import { toolOperations } from "../rest/operations";
import { agentOnlyScopes, type Scope } from "../../auth";
import type { ZCanadianAddressResponse } from "../../core/address";
import type { ZMeResponse } from "../../accounts";
import type {
  ZListCategoriesResponse,
  ZPriceHistory,
  ZProductDetail,
  ZSearchProductsResponse,
  ZStoreDetail,
} from "../../catalogue";
import type { ZQuote } from "../../checkout";
import type { ZCheckout, ZCheckoutDetail } from "../../checkout";
import type { ZListMyOrdersResponse, ZOrder } from "../../orders/index";
import type { ZListPurchasesResponse } from "../../purchases";
import type {
  ZPriceWatchEvaluationList,
  ZPriceWatchGroup,
  ZPriceWatchGroupList,
  ZPriceWatchPreview,
} from "../../price-watches";
import type { ZSearchWatch, ZSearchWatchList } from "../../search-watches";
import type { AppError } from "../../core/errors";
import type { Caller } from "../trpc/caller";

/** Which connector lists a tool: "public" tools are on both, "account" tools only on /mcp/account. */
export type ToolConnector = "public" | "account";

type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
};

/**
 * What a tool call gets besides its arguments: the caller, the key for an Idempotency-Key the
 * assistant left out, and what the edge refuses before any call (a public caller without a session).
 */
export type ToolCall = {
  caller: Caller;
  idempotencyKey: (args: unknown) => string;
  refuse?: (definition: ToolDefinition) => AppError | undefined;
};

export type ToolDefinition = {
  name: string;
  title: string;
  /** The table entry's key, e.g. "GET /api/v1/products". */
  operation: OperationId;
  scope: Scope;
  connector: ToolConnector;
  description: string;
  /** The arguments: the entry's params, query and body fields, and its headers as snake_case arguments. */
  input: z.ZodType;
  output: z.ZodType;
  annotations: ToolAnnotations;
  /** Parsed arguments in, the REST success body out. */
  call: (args: Record<string, unknown>, call: ToolCall) => Promise<unknown>;
  /** A short rendering an assistant can show a person. */
  text: (result: unknown) => string;
};

const read: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Creates something new (a quote each call). */
const creates: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Creates something once per idempotency key. */
const createsOnce: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Ends something (cancelling twice is the same as once). */
const ends: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** The MCP-only part of a tool. `usage` says, in tool names, where its arguments come from and where its result goes. */
type Presentation<R> = {
  title: string;
  usage: string;
  annotations?: ToolAnnotations;
  text: (result: R) => string;
};
const present = <S extends z.ZodType>(presentation: Presentation<z.output<S>>) =>
  presentation as Presentation<unknown>;

const money = (value: { amount: string; currency: string }) => `${value.amount} ${value.currency}`;

/** A price watch group in one line (its four tools). */
const groupLine = (group: z.output<typeof ZPriceWatchGroup>) =>
  `Group ${group.price_watch_group_id} is ${group.status}${group.outcome ? ` (${group.outcome})` : ""}: ${group.alternatives.length} items within ${money(group.max_total)} until ${group.expires_at}${group.purchase_id ? `; purchase ${group.purchase_id}` : ""}.`;

const presentations: Record<string, Presentation<unknown>> = {
  search_products: present<typeof ZSearchProductsResponse>({
    title: "Search items for sale",
    usage:
      'Prices are CAD. category is a path from list_categories; size, color and brand are lists (any of); min_price/max_price are CAD strings such as "49.99". sort=price_drop lists first the items whose price dropped in the last 7 days, on_sale=true only items whose latest price change lowered the price in the last 30 days. Each result\'s id is the item_id for get_product, get_price_history and create_quote.',
    text: (result) =>
      [
        `${result.pagination.total} items (page ${result.pagination.page} of ${result.pagination.last_page}).`,
        ...result.data
          .slice(0, 10)
          .map(
            (item) =>
              `- #${item.id} ${item.title}: ${money(item.price)} (${item.store.name})${item.sizes.length ? `, sizes ${item.sizes.join(", ")}` : ""}`,
          ),
      ].join("\n"),
  }),
  get_product: present<typeof ZProductDetail>({
    title: "One item",
    usage: "id is an item id from search_products.",
    text: (item) =>
      `#${item.id} ${item.title}: ${money(item.price)} at ${item.store.name}. ${item.available ? "Available" : "Not available"}; sizes: ${item.sizes.join(", ") || "one size"}. ${item.url}`,
  }),
  get_price_history: present<typeof ZPriceHistory>({
    title: "An item's price history",
    usage:
      "id is an item id from search_products. State the lows and the change as returned: they are over every price change, even when only the newest 500 points are listed.",
    text: (history) =>
      `#${history.catalog_item_id}: now ${money(history.points.at(-1)!.price)}${history.change_from_previous ? ` (${history.change_from_previous.amount} CAD, ${history.change_from_previous.percent}% from ${money(history.previous_price!)})` : ", never changed"}. Lowest: ${money(history.lowest_30_days)} in 30 days, ${money(history.lowest_90_days)} in 90 days, ${money(history.lowest_since_listed)} since listed.`,
  }),
  get_store: present<typeof ZStoreDetail>({
    title: "A store",
    usage:
      "Spend the free-shipping threshold in its items and shipping is free. store_slug is item.store.slug from search_products or get_product.",
    text: (store) =>
      `${store.name} (${store.province}): ${store.open_for_orders ? "open for orders" : "not taking orders"}. ${store.free_shipping ? `Free shipping from ${money(store.free_shipping.threshold)}.` : "No free-shipping offer."} Shipping: ${store.shipping_services.map((service) => `${service.label} (${service.min_days}-${service.max_days} days)`).join(", ")}.`,
  }),
  list_categories: present<typeof ZListCategoriesResponse>({
    title: "Categories",
    usage: "Pass a path as the category filter of search_products.",
    text: (result) =>
      result.data.length
        ? result.data.map((node) => `- ${node.path} (${node.item_count})`).join("\n")
        : "No categories yet.",
  }),
  create_quote: present<typeof ZQuote>({
    title: "Price an order",
    usage:
      "items: item_id from search_products, size as listed in the item's variants, any spelling of it (optional when the item comes in one size), quantity 1-10. The quote expires (expires_at); pass its quote_id to create_checkout.",
    annotations: creates,
    text: (quote) =>
      [
        `Quote ${quote.quote_id}: ${money(quote.totals.grand_total)} in total (items ${money(quote.totals.subtotal)}, shipping ${money(quote.totals.shipping)}, tax ${money(quote.totals.tax)}); valid until ${quote.expires_at}.`,
        ...quote.unavailable_items.map(
          (item) => `- item #${item.item_id} cannot be bought: ${item.reason}`,
        ),
      ].join("\n"),
  }),
  create_checkout: present<typeof ZCheckout>({
    title: "Create a checkout link",
    usage:
      "quote_id comes from create_quote. The person opens checkout_url to review and pay themselves; nothing is charged here. email receives the confirmation and tracking. shipping_selections maps a store slug to a shipping option key of the quote (default: the cheapest). Follow it with get_checkout.",
    annotations: createsOnce,
    text: (checkout) =>
      `Checkout ${checkout.checkout_id} for ${money(checkout.totals.grand_total)}: the person pays at ${checkout.checkout_url} before ${checkout.expires_at}.`,
  }),
  get_checkout: present<typeof ZCheckoutDetail>({
    title: "Follow a checkout",
    usage:
      "Status is awaiting_payment, paid, cancelled or expired. checkout_id comes from create_checkout.",
    text: (checkout) =>
      `Checkout ${checkout.checkout_id} is ${checkout.status}${checkout.order_number ? `, order ${checkout.order_number}` : ""}; total ${money(checkout.totals.grand_total)}.`,
  }),
  cancel_checkout: present<typeof ZCheckout>({
    title: "Cancel a checkout",
    usage: "The link stops working. checkout_id comes from create_checkout.",
    annotations: ends,
    text: (checkout) => `Checkout ${checkout.checkout_id} is ${checkout.status}.`,
  }),
  get_me: present<typeof ZMeResponse>({
    title: "The signed-in person",
    usage: "Pass the saved sizes as the size filter of search_products.",
    text: (me) =>
      `${me.name ?? "(no name)"} <${me.email}>; saved sizes: ${me.sizes.join(", ") || "none"}.`,
  }),
  get_my_shipping_address: present<typeof ZCanadianAddressResponse>({
    title: "The person's shipping address",
    usage: "Ready to pass as shipping_address to create_quote; not_found when none is saved.",
    text: (address) =>
      `${address.name}, ${address.line1}${address.line2 ? `, ${address.line2}` : ""}, ${address.city} ${address.province} ${address.postal_code}`,
  }),
  create_search_watch: present<typeof ZSearchWatch>({
    title: "Watch a search",
    usage:
      "The filters are search_products' (q, category, size, color, brand, store, min_price, max_price). mode notify emails the person about new matches (at most one email an hour); mode buy (max_total required, purchase:write) buys the first new match once within max_total. Follow it with get_search_watch.",
    annotations: creates,
    text: (watch) =>
      `Search watch ${watch.search_watch_id} (${watch.mode}) is ${watch.status} until ${watch.expires_at}.`,
  }),
  list_search_watches: present<typeof ZSearchWatchList>({
    title: "The person's search watches",
    usage:
      "Newest first; each search_watch_id is the argument of get_search_watch and cancel_search_watch.",
    text: (result) =>
      [
        `${result.pagination.total} search watches.`,
        ...result.data.map(
          (watch) =>
            `- ${watch.search_watch_id} (${watch.mode}): ${watch.status}, ${watch.matches_count} matches`,
        ),
      ].join("\n"),
  }),
  get_search_watch: present<typeof ZSearchWatch>({
    title: "One search watch",
    usage: "search_watch_id comes from create_search_watch or list_search_watches.",
    text: (watch) =>
      `Search watch ${watch.search_watch_id} (${watch.mode}) is ${watch.status}${watch.outcome ? ` (${watch.outcome})` : ""}; ${watch.matches_count} matches${watch.order_number ? `; order ${watch.order_number}` : ""}.`,
  }),
  cancel_search_watch: present<typeof ZSearchWatch>({
    title: "Cancel a search watch",
    usage: "It stops watching; a purchase it made is cancelled from its own email.",
    annotations: ends,
    text: (watch) => `Search watch ${watch.search_watch_id} is ${watch.status}.`,
  }),
  list_my_purchases: present<typeof ZListPurchasesResponse>({
    title: "Purchases made for the person",
    usage:
      "What this assistant bought for the person, newest first, each with its status and when a hold is charged.",
    text: (result) =>
      [
        `${result.pagination.total} purchases.`,
        ...result.data.map(
          (purchase) =>
            `- ${purchase.purchase_id} (${purchase.order_number ?? "no order"}): ${money(purchase.totals.grand_total)}, ${purchase.status}`,
        ),
      ].join("\n"),
  }),
  list_my_orders: present<typeof ZListMyOrdersResponse>({
    title: "The person's orders",
    usage:
      "One per store, with fulfilment and tracking. Each order_number is the argument of get_my_order.",
    text: (result) =>
      [
        `${result.pagination.total} orders.`,
        ...result.data.map(
          (order) =>
            `- ${order.order_number} (${order.store.name}): ${money(order.totals.grand_total)}, ${order.fulfilment}${order.tracking ? `, ${order.tracking.carrier} ${order.tracking.tracking_number}` : ""}`,
        ),
      ].join("\n"),
  }),
  get_my_order: present<typeof ZOrder>({
    title: "One of the person's orders",
    usage: "With its items, totals and tracking. order_number comes from list_my_orders.",
    text: (order) =>
      `Order ${order.order_number} (${order.store.name}): ${money(order.totals.grand_total)}, ${order.fulfilment}${order.tracking ? `, ${order.tracking.carrier} ${order.tracking.tracking_number}` : ""}.`,
  }),
  preview_price_watch: present<typeof ZPriceWatchPreview>({
    title: "Preview a price watch",
    usage:
      "Same arguments as setting a watch (catalog_item_id from search_products, max_price or drop_percent, max_total, size, days). Sets nothing: says whether it would buy now and why not, condition by condition.",
    annotations: read,
    text: (preview) =>
      [
        `${preview.would_buy_now ? "Would buy now" : "Would not buy now"}: item #${preview.catalog_item_id} at ${money(preview.current_price)}, max_price ${money(preview.max_price)}, max_total ${money(preview.max_total)}.`,
        ...preview.conditions
          .filter((condition) => !condition.passed)
          .map((condition) => `- ${condition.condition}: ${condition.message}`),
        ...preview.warnings.map((warning) => `Warning: ${warning.message}`),
      ].join("\n"),
  }),
  list_price_watch_evaluations: present<typeof ZPriceWatchEvaluationList>({
    title: "A price watch's evaluations",
    usage:
      "price_watch_id is a watch of the person. Newest first: the price seen, the total when quoted, the outcome and the first condition that failed.",
    text: (result) =>
      [
        `${result.pagination.total} evaluations.`,
        ...result.data.map(
          (row) =>
            `- ${row.evaluated_at}: ${money(row.price)}${row.total ? ` (total ${money(row.total)})` : ""}, ${row.outcome}${row.failed_condition ? `: ${row.failed_condition}` : ""}`,
        ),
      ].join("\n"),
  }),
  create_price_watch_group: present<typeof ZPriceWatchGroup>({
    title: "Watch several items, buy the first that fits",
    usage:
      "alternatives: 1-10 items ({catalog_item_id from search_products, size?, max_price?}); max_total in CAD covers the one purchase with shipping and tax; days 1-30. The person is emailed with a cancel link. Follow it with get_price_watch_group.",
    annotations: creates,
    text: groupLine,
  }),
  list_price_watch_groups: present<typeof ZPriceWatchGroupList>({
    title: "The person's price watch groups",
    usage:
      "Newest first, each with its alternatives; price_watch_group_id is the argument of get_price_watch_group and cancel_price_watch_group.",
    text: (result) =>
      [`${result.pagination.total} groups.`, ...result.data.map(groupLine)].join("\n"),
  }),
  get_price_watch_group: present<typeof ZPriceWatchGroup>({
    title: "One price watch group",
    usage: "price_watch_group_id comes from create_price_watch_group or list_price_watch_groups.",
    text: groupLine,
  }),
  cancel_price_watch_group: present<typeof ZPriceWatchGroup>({
    title: "Cancel a price watch group",
    usage:
      "Stops every item of the group; refused (watch_closed) while one is buying or once it ended.",
    annotations: ends,
    text: groupLine,
  }),
};

/** The request headers a tool takes as arguments. Only Idempotency-Key so far: optional, the connector derives one when left out. */
const headerArguments: Record<string, { argument: string; description: string }> = {
  "Idempotency-Key": {
    argument: "idempotency_key",
    description:
      "Up to 64 characters of A-Z, a-z, 0-9, _ and -. The same key returns the same result. Leave it out and the connector derives one from this session and these arguments, so a retried call never makes a second one.",
  },
};

type AnyObject = z.ZodObject<z.ZodRawShape>;
const noArguments = z.object({}).strict();

/** The entry's parts that carry arguments (path parameters, query, JSON body), in that order. */
const argumentParts = (entry: Operation) =>
  (["params", "query", "body"] as const).flatMap((part) => {
    const schema = entry.input[part];
    if (schema === undefined) return [];
    if (!(schema instanceof z.ZodObject))
      throw new Error(`${entry.id}: input.${part} must be a zod object to become tool arguments`);
    return [{ part, schema: schema as AnyObject }];
  });

const headerShape = (entry: Operation) => {
  const shape: Record<string, z.ZodType> = {};
  for (const [header, schema] of Object.entries(entry.input.headers?.shape ?? {})) {
    const mapping = headerArguments[header];
    if (!mapping)
      throw new Error(
        `${entry.id}: no tool argument for the header ${header} (server/edges/mcp/tools.ts headerArguments)`,
      );
    shape[mapping.argument] = schema.optional().meta({ description: mapping.description });
  }
  return shape;
};

/**
 * One argument object: a single part is used as it is (its refinements and strictness kept); several
 * are joined with safeExtend, which keeps the first part's checks, so a later part must have none.
 */
const argumentSchema = (entry: Operation): z.ZodType => {
  const parts = argumentParts(entry);
  const headers = headerShape(entry);
  if (parts.length === 0 && Object.keys(headers).length === 0) return noArguments;
  const [first, ...rest] = parts.length
    ? parts.map((entryPart) => entryPart.schema)
    : [noArguments];
  for (const later of rest) {
    if (later._zod.def.checks?.length)
      throw new Error(
        `${entry.id}: only the first input part may have refinements to be joined into tool arguments`,
      );
  }
  return [...rest.map((later) => later.shape), headers].reduce<AnyObject>(
    (joined, shape) => joined.safeExtend(shape) as unknown as AnyObject,
    first,
  );
};

const pick = (args: Record<string, unknown>, schema: AnyObject) =>
  Object.fromEntries(
    Object.keys(schema.shape)
      .filter((key) => key in args)
      .map((key) => [key, args[key]]),
  );

/** Splits parsed arguments back into the entry's parts and calls it, as the REST edge would after parsing. */
const callOf = (entry: Operation) => {
  const parts = argumentParts(entry);
  const headerSchema = entry.input.headers;
  return async (args: Record<string, unknown>, { caller, idempotencyKey }: ToolCall) => {
    const split: Record<"params" | "query" | "body", unknown> = {
      params: undefined,
      query: undefined,
      body: undefined,
    };
    for (const { part, schema } of parts) split[part] = pick(args, schema);
    let headers: Record<string, unknown> = {};
    if (headerSchema) {
      const withoutHeaders = Object.fromEntries(
        Object.entries(args).filter(
          ([key]) => !Object.values(headerArguments).some((mapping) => mapping.argument === key),
        ),
      );
      const given = Object.fromEntries(
        Object.keys(headerSchema.shape).map((header) => [
          header,
          args[headerArguments[header].argument] ?? idempotencyKey(withoutHeaders),
        ]),
      );
      headers = headerSchema.parse(given);
    }
    return (await entry.call({ caller, ...split, headers } as Parameters<Operation["call"]>[0]))
      .body;
  };
};

/** A partner's tool is on both connectors; one that needs a token a person granted, on /mcp/account only. */
const connectorOf = (entry: Operation): ToolConnector =>
  entry.meta.caller === "partner" ? "public" : "account";

const toTool = (entry: Operation & { tool: string }): ToolDefinition => {
  const presentation = presentations[entry.tool];
  if (!presentation)
    throw new Error(`No MCP presentation for the tool ${entry.tool} in server/edges/mcp/tools.ts`);
  const annotations = presentation.annotations ?? (entry.method === "GET" ? read : undefined);
  if (!annotations)
    throw new Error(
      `The tool ${entry.tool} (${entry.id}) changes something: declare its annotations in server/edges/mcp/tools.ts`,
    );
  // A tool acts for a scope a person can grant an assistant, and answers structured content.
  const scope = scopeOf(entry);
  if (scope === null || !entry.output)
    throw new Error(`The tool ${entry.tool} (${entry.id}) needs a scope and an output schema`);
  return {
    name: entry.tool,
    title: presentation.title,
    operation: entry.id,
    scope,
    connector: connectorOf(entry),
    description: `${entry.summary}. ${presentation.usage}`,
    input: argumentSchema(entry),
    output: entry.output,
    annotations,
    call: callOf(entry),
    text: presentation.text,
  };
};

export const tools: ToolDefinition[] = toolOperations().map(toTool);

/** The tools a connector lists: the public ones everywhere, the account ones on /mcp/account only. */
export const toolsOf = (connector: ToolConnector) =>
  tools.filter((entry) => connector === "account" || entry.connector === "public");

/**
 * The scopes a connector's tools need: what the public connector's callers hold, and what /mcp/account
 * asks a person for. Never an agent-only scope (purchase:write: the price watch preview and group tools):
 * the authorize endpoint refuses it to any client not registered at the agent door, so asking every
 * connector client for it would break their sign-in; an assistant registered there asks for it itself
 * (ADR 0116).
 */
export const scopesOf = (connector: ToolConnector): Scope[] => [
  ...new Set(
    toolsOf(connector)
      .map((entry) => entry.scope)
      .filter((scope) => !agentOnlyScopes.includes(scope)),
  ),
];

/** The tool names that have an MCP presentation here (tools.test.ts: each is a tool of the table). */
export const presentedTools = Object.keys(presentations);
