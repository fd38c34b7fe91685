/** Building blocks of the OpenAPI document shared by the operation table's entries (server/api/). */
import { z } from "zod";
import { ZUnavailableItem } from "../../checkout";
import { ZMoney } from "../../core/money-input";
import { ZIntCount, ZIntId } from "../../core/zod";

/** A quote line an error names: the item and the size asked for. */
const ZErrorItem = z
  .object({
    item_id: ZIntId(48213),
    size: z.string().nullable().meta({ example: "M" }),
  })
  .meta({ id: "ErrorItem" });

/**
 * The extra members a code carries (core/errors.ts `details`; ADR 0020), each optional: declared so
 * a client validating against the document accepts them, while an undeclared member stays refused.
 */
const errorDetails = {
  scope: z.string().optional().meta({
    description: "On 403 insufficient_scope: the scope the operation needs",
    example: "purchase:write",
  }),
  items: z.array(ZErrorItem).optional().meta({
    description:
      "On the 409s of POST /checkout/sessions and POST /purchases (item_unavailable, nothing_to_buy, quote_expired, price_changed, price_unavailable): the quote's lines concerned",
  }),
  unavailable_items: z.array(ZUnavailableItem).optional().meta({
    description: "On 409 nothing_to_buy from POST /checkout/quotes: why each item cannot be bought",
  }),
  limit: z
    .union([ZMoney, ZIntCount(25)])
    .optional()
    .meta({
      description:
        "On over_spending_limit: the spending limit exceeded (Money). On too_many_watches, too_many_alerts, too_many_search_watches and too_many_open_checkouts: how many are allowed (integer)",
    }),
  room: ZMoney.optional().meta({
    description: "On over_spending_limit: what the spending limits still allow",
  }),
  current_price: ZMoney.optional().meta({
    description: "On already_at_price: the item's price now",
  }),
  price_watch_id: ZIntId(311).optional().meta({
    description: "On already_watching: the person's live watch on the item",
  }),
  price_alert_id: z.string().optional().meta({
    description: "On already_alerting: the person's live alert on the item",
    example: "alr_9c2e4b7d1f3a4e6b8c0d2f4a",
  }),
  stores: z
    .array(z.string().meta({ example: "north-thread" }))
    .optional()
    .meta({ description: "On store_requires_checkout_link: the slugs of the stores concerned" }),
  status: z.string().optional().meta({
    description:
      "On checkout_closed and watch_closed: the status the checkout or watch already has",
    example: "paid",
  }),
  violated_policies: z
    .array(z.string().meta({ example: "minute" }))
    .optional()
    .meta({ description: "On 429: the RateLimit-Policy names that are spent" }),
  retry_after: ZIntCount(1800).optional().meta({
    description: "On too_many_open_checkouts: seconds until the first open checkout ends",
  }),
};

const ZError = z
  .object({
    error: z.object({
      code: z
        .string()
        .meta({ description: "Stable snake_case code; treat unknown codes as other" }),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: "Only on 422: field name to the reason" }),
      ...errorDetails,
    }),
  })
  .meta({
    id: "Error",
    example: {
      error: {
        code: "invalid_request",
        message: "Some fields are invalid.",
        fields: { per_page: "must be at most 48" },
      },
    },
  });

export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ZError } },
});

/** The statuses every API endpoint may answer. */
export const commonErrors = {
  400: errorResponse(
    "The request line, path, query or a header cannot be read: malformed percent-encoding, a NUL, an unusable method (bad_request)",
  ),
  401: errorResponse(
    "Missing, invalid, expired or revoked access token (WWW-Authenticate: Bearer)",
  ),
  403: errorResponse("The token lacks the scope (insufficient_scope)"),
  422: errorResponse("Invalid request; fields names each bad field (invalid_request)"),
  429: errorResponse("Rate limit reached; retry after Retry-After seconds (rate_limited)"),
  431: errorResponse(
    "The request line and headers exceed 16 KiB (request_header_fields_too_large)",
  ),
  503: errorResponse(
    "A dependency is briefly unavailable; retry after Retry-After seconds (unavailable)",
  ),
};

/** What reading a JSON body may answer (server/edges/rest/json-body.ts). */
export const bodyErrors = {
  413: errorResponse("Body over 64 KiB (payload_too_large)"),
  415: errorResponse(
    "Body is not JSON, or is sent with a Content-Encoding (unsupported_media_type)",
  ),
};

export const ok = (schema: z.ZodType, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
