/** OpenAPI paths of assistant purchases. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonErrors, errorResponse, ok } from "../../http/openapi-parts";
import { ZIdempotencyHeaders } from "../checkout/session.schema";
import { purchasesPerHour, ZCreatePurchaseBody, ZPurchase, ZPurchaseIdParams } from "./purchase.schema";

const security = [{ oauth2: ["purchase:write"] }];

export const purchasesPaths: ZodOpenApiPathsObject = {
  "/purchases": {
    post: {
      operationId: "createPurchase",
      summary: "Buy a quote with the person's saved card, within their spending limits (assistants only)",
      description:
        "Scope purchase:write, on a token the person granted to an assistant registered at /oauth/register/agent (and ticked on the consent page); purchases must be switched on for the assistant (on in the sandbox by default). The quote must be this assistant's for this person, unexpired, for the address saved in the person's account, with every store direct and delivery outside Quebec. The card is held off-session and charged at charges_at (24 hours later) unless the person cancels from the copy email. Idempotency-Key is required (up to 64 of A-Z a-z 0-9 _ -): the same key and body replay the first answer byte for byte (refusals and 402 included) with Idempotent-Replayed: true; another body is 422 idempotency_key_reused; while the first runs, 409 idempotency_key_in_use. " +
        `At most ${purchasesPerHour} purchases per person per hour (429 too_many_purchases, not stored under the key).`,
      security,
      requestParams: { header: ZIdempotencyHeaders },
      requestBody: { required: true, content: { "application/json": { schema: ZCreatePurchaseBody } } },
      responses: {
        ...commonErrors,
        201: ok(ZPurchase, "Held: the card is on hold until charges_at; the person was emailed a copy with a cancel link"),
        202: ok(ZPurchase, "Processing: the bank has not answered; follow with GET /purchases/{purchase_id}"),
        402: ok(ZPurchase, "requires_person: nothing charged; checkout.checkout_url lets the person pay, error says why (card_declined, authentication_required)"),
        403: errorResponse("insufficient_scope (no purchase:write, or no person on the token), agent_purchases_unavailable, purchases_paused, store_requires_checkout_link, not_available_in_market; nothing charged"),
        404: errorResponse("No such quote for this assistant and person (not_found)"),
        409: errorResponse(
          "Refused, nothing charged: quote_already_purchased, quote_expired, item_unavailable, address_not_on_file, spending_limit_not_set, no_saved_card, card_not_on_this_account, price_changed, price_unavailable, over_spending_limit (with limit and room, each Money); or idempotency_key_in_use (Retry-After)",
        ),
        413: errorResponse("Body over 64 KiB (payload_too_large)"),
        415: errorResponse("Body is not JSON (unsupported_media_type)"),
        429: errorResponse(`too_many_purchases (more than ${purchasesPerHour} per person per hour) or rate_limited; Retry-After`),
      },
    },
  },
  "/purchases/{purchase_id}": {
    get: {
      operationId: "getPurchase",
      summary: "Follow a purchase (e.g. a 202 processing) to held, paid, requires_person, refused or cancelled",
      description: "Scope purchase:write. Only the purchase's person, through the assistant that made it; any other purchase is 404.",
      security,
      requestParams: { path: ZPurchaseIdParams },
      responses: { 200: ok(ZPurchase), 404: errorResponse("No such purchase for this assistant and person (not_found)"), ...commonErrors },
    },
  },
};
