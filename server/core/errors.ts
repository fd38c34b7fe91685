/**
 * The one error type thrown below the edges, and the one table mapping each code to its HTTP status
 * and tRPC code. Both the REST wrapper and the tRPC error formatter read this table.
 */
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";

type Mapping = { status: number; trpc: TRPC_ERROR_CODE_KEY };

export const errorTable = {
  /** The HTTP layer cannot read the request: malformed target or percent-encoding, NUL, unknown method. */
  bad_request: { status: 400, trpc: "BAD_REQUEST" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  insufficient_scope: { status: 403, trpc: "FORBIDDEN" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  /** The request did not arrive in time (node's request timeout). */
  request_timeout: { status: 408, trpc: "TIMEOUT" },
  idempotency_key_in_use: { status: 409, trpc: "CONFLICT" },
  retired: { status: 410, trpc: "NOT_FOUND" },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  unsupported_media_type: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  /** The request line and headers exceed node's limit (16 KiB). */
  request_header_fields_too_large: { status: 431, trpc: "BAD_REQUEST" },
  invalid_request: { status: 422, trpc: "UNPROCESSABLE_CONTENT" },
  idempotency_key_reused: { status: 422, trpc: "UNPROCESSABLE_CONTENT" },
  rate_limited: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  internal_error: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  // Accounts (issue 4)
  /** The person must confirm their email address first (e.g. before approving an app). */
  email_not_verified: { status: 403, trpc: "FORBIDDEN" },
  /** An emailed link that is forged, expired, for another purpose or already used. */
  invalid_link: { status: 400, trpc: "BAD_REQUEST" },
  // Checkout refusals (issue 5): the caller must create a new quote (or, on the page, a new link).
  quote_expired: { status: 409, trpc: "CONFLICT" },
  item_unavailable: { status: 409, trpc: "CONFLICT" },
  nothing_to_buy: { status: 409, trpc: "CONFLICT" },
  /** The checkout is paid, cancelled or expired: it can no longer be paid or changed. */
  checkout_closed: { status: 409, trpc: "CONFLICT" },
  /** Another payment attempt of the same checkout is still with the processor. */
  payment_in_progress: { status: 409, trpc: "CONFLICT" },
  // Assistant purchases (issue 9)
  /** One purchase per quote: this quote was already bought. */
  quote_already_purchased: { status: 409, trpc: "CONFLICT" },
  /** The cancel link was used after cancel_until: the charge goes ahead. */
  too_late_to_cancel: { status: 409, trpc: "CONFLICT" },
  /** The cancel lost the race with the charge (B3-13): the card is charged. */
  already_charged: { status: 409, trpc: "CONFLICT" },
  /** Sandbox shipping of a purchase's order before its card is charged (held) or after it was cancelled. */
  order_not_paid: { status: 409, trpc: "CONFLICT" },
  /** A store cancelling an order it already shipped (operator: refund it instead). */
  order_shipped: { status: 409, trpc: "CONFLICT" },
  /** Sandbox shipping of an order its store cancelled (refunded in full): it never ships. */
  order_cancelled: { status: 409, trpc: "CONFLICT" },
  /** A refund of more than is left of the order, or of nothing. */
  not_refundable: { status: 409, trpc: "CONFLICT" },
  /** The purchase was refused, or must be paid by the person: there is no hold to cancel. */
  purchase_closed: { status: 409, trpc: "CONFLICT" },
  // POST /purchases refusals (DESIGN.md): 429 and 403 as listed, 409 every other purchase code.
  too_many_purchases: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  /**
   * POST /checkout/sessions and create_checkout: the caller already holds as many open checkouts as
   * it may (a public MCP session 5, a public caller's address MCP_OPEN_CHECKOUTS_PER_ADDRESS, a
   * partner client CLIENT_OPEN_RESERVED_UNITS reserved units); Retry-After says when the first ends.
   */
  too_many_open_checkouts: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  agent_purchases_unavailable: { status: 403, trpc: "FORBIDDEN" },
  purchases_paused: { status: 403, trpc: "FORBIDDEN" },
  store_requires_checkout_link: { status: 403, trpc: "FORBIDDEN" },
  not_available_in_market: { status: 403, trpc: "FORBIDDEN" },
  address_not_on_file: { status: 409, trpc: "CONFLICT" },
  spending_limit_not_set: { status: 409, trpc: "CONFLICT" },
  no_saved_card: { status: 409, trpc: "CONFLICT" },
  card_not_on_this_account: { status: 409, trpc: "CONFLICT" },
  /** The payment processor refused the request itself (the service's key or permissions at Stripe): no bank was asked, nothing held. */
  processor_refused: { status: 409, trpc: "CONFLICT" },
  price_changed: { status: 409, trpc: "CONFLICT" },
  price_unavailable: { status: 409, trpc: "CONFLICT" },
  over_spending_limit: { status: 409, trpc: "CONFLICT" },
  // POST /price-alerts refusals (issue 10): 409, no alert set.
  /** The item's store does not offer price alerts (its owner turned them off). */
  store_alerts_unavailable: { status: 409, trpc: "CONFLICT" },
  /** The item is already at or under the target price: nothing to wait for. */
  already_at_price: { status: 409, trpc: "CONFLICT" },
  /** The person already has a live alert on this item (its id is in the body). */
  already_alerting: { status: 409, trpc: "CONFLICT" },
  /** The person holds the most live alerts allowed. */
  too_many_alerts: { status: 409, trpc: "CONFLICT" },
  // POST /price-watches refusals (DESIGN.md: 409, no watch set); the shared purchase codes above are raised with status 409 there.
  already_watching: { status: 409, trpc: "CONFLICT" },
  too_many_watches: { status: 409, trpc: "CONFLICT" },
  /** The person holds the most live search watches allowed (POST /search-watches). */
  too_many_search_watches: { status: 409, trpc: "CONFLICT" },
  /** The item comes in several sizes and the person's saved sizes name none or several of them: pass size (the message lists the item's sizes). */
  size_required: { status: 409, trpc: "CONFLICT" },
  /** DELETE of a watch that already bought, ended or needs the person: nothing to cancel. */
  watch_closed: { status: 409, trpc: "CONFLICT" },
} as const satisfies Record<string, Mapping>;

export type ErrorCode = keyof typeof errorTable;

export type AppErrorOptions = {
  message?: string;
  /** Field name to reason, only for 422. */
  fields?: Record<string, string>;
  /** Extra members of the error body the reference names (e.g. limit and room). */
  details?: Record<string, unknown>;
  /** Seconds for Retry-After (429, 503, 409 in-flight). */
  retryAfter?: number;
  headers?: Record<string, string>;
  /**
   * The HTTP status when an operation answers a shared code with another status than the table's
   * (DESIGN.md: POST /price-watches refuses every watch code with 409, purchases_paused included).
   */
  status?: 409;
};

const defaultMessages: Partial<Record<ErrorCode, string>> = {
  unauthorized: "A valid access token is required.",
  insufficient_scope: "The access token lacks the scope this operation needs.",
  not_found: "Nothing was found at this address.",
  invalid_request: "The request is invalid; see fields.",
  rate_limited: "Too many requests; retry after the seconds in Retry-After.",
  unavailable: "A dependency is briefly unavailable; retry after the seconds in Retry-After.",
  internal_error: "Something went wrong on our side.",
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly options: AppErrorOptions;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? defaultMessages[code] ?? code.replace(/_/g, " "));
    this.code = code;
    this.options = options;
  }

  get status(): number {
    return this.options.status ?? errorTable[this.code].status;
  }
}

/** The shared error body: {"error": {code, message, fields?, ...details}}. */
export const errorBody = (error: AppError) => ({
  error: {
    code: error.code,
    message: error.message,
    ...(error.options.fields ? { fields: error.options.fields } : {}),
    ...error.options.details,
  },
});
