/** Assistant purchases (procedures in server/routers/purchases). */
import { errorResponse, ok } from "./openapi-parts";
import { ZIdempotencyHeaders } from "../../checkout";
import {
  purchasesPerHour,
  ZCreatePurchaseBody,
  ZListPurchasesRequest,
  ZListPurchasesResponse,
  ZPurchase,
  ZPurchaseIdParams,
} from "../../purchases";
import { defineOperation } from "./operation";

export const purchaseOperations = [
  defineOperation({
    id: "POST /api/v1/purchases",
    operationId: "createPurchase",
    procedure: "purchases.create",
    input: { body: ZCreatePurchaseBody, headers: ZIdempotencyHeaders },
    output: ZPurchase,
    status: 201,
    outputDescription:
      "Held: the card is on hold until charges_at; the person was emailed a copy with a cancel link",
    summary:
      "Buy a quote with the person's saved card, within their spending limits (assistants only)",
    description:
      "Scope purchase:write, on a token the person granted to an assistant registered at /oauth/register/agent (and ticked on the consent page); purchases must be switched on for the assistant (on in the sandbox by default). The quote must be this assistant's for this person, unexpired, for the address saved in the person's account, with every store direct and delivery outside Quebec. The card is held off-session and charged at charges_at (24 hours later) unless the person cancels from the copy email. Idempotency-Key is required (up to 64 of A-Z a-z 0-9 _ -): the same key and body replay the first answer byte for byte (refusals and 402 included) with Idempotent-Replayed: true; another body is 422 idempotency_key_reused with fields naming Idempotency-Key, checked before the quote is looked up (so even for an unknown quote); while the first runs, 409 idempotency_key_in_use. " +
      `At most ${purchasesPerHour} purchases per person per hour (429 too_many_purchases, not stored under the key).`,
    responses: {
      202: ok(
        ZPurchase,
        "Processing: the bank has not answered; follow with GET /purchases/{purchase_id}",
      ),
      402: ok(
        ZPurchase,
        "requires_person: nothing charged; checkout.checkout_url lets the person pay, error says why (card_declined, authentication_required)",
      ),
      403: errorResponse(
        "insufficient_scope (no purchase:write, or no person on the token), agent_purchases_unavailable, purchases_paused, store_requires_checkout_link, not_available_in_market; nothing charged",
      ),
      404: errorResponse("No such quote for this assistant and person (not_found)"),
      409: errorResponse(
        "Refused, nothing charged: quote_already_purchased, quote_expired, item_unavailable, address_not_on_file, spending_limit_not_set, no_saved_card, card_not_on_this_account (the saved card is no longer on the person's account at the processor), processor_refused (the payment processor refused the service's request before any bank was asked; try later with a new quote), price_changed, price_unavailable, over_spending_limit (with limit and room, each Money); or idempotency_key_in_use (Retry-After)",
      ),
      429: errorResponse(
        `too_many_purchases (more than ${purchasesPerHour} per person per hour) or rate_limited; Retry-After`,
      ),
    },
    call: async ({ caller, body, headers }) => {
      const { outcome, replayed } = await caller.purchases.create({
        ...body,
        idempotency_key: headers["Idempotency-Key"],
      });
      return {
        body: outcome.body,
        status: outcome.status,
        headers: replayed ? { "Idempotent-Replayed": "true" } : undefined,
      };
    },
  }),
  defineOperation({
    id: "GET /api/v1/purchases",
    tool: "list_my_purchases",
    operationId: "listPurchases",
    procedure: "purchases.list",
    input: { query: ZListPurchasesRequest },
    output: ZListPurchasesResponse,
    summary: "The purchases this assistant made for the linked person, newest first",
    description:
      "Scope purchase:write or orders:read, on a token the person granted. Only this assistant's purchases for this person; paged as search is (page, per_page up to 48).",
    call: async ({ caller, query }) => ({ body: await caller.purchases.list(query) }),
  }),
  defineOperation({
    id: "GET /api/v1/purchases/{purchase_id}",
    operationId: "getPurchase",
    procedure: "purchases.get",
    input: { params: ZPurchaseIdParams },
    output: ZPurchase,
    summary:
      "Follow a purchase (e.g. a 202 processing) to held, paid, requires_person, refused or cancelled",
    description:
      "Scope purchase:write. Only the purchase's person, through the assistant that made it; any other purchase is 404.",
    responses: { 404: errorResponse("No such purchase for this assistant and person (not_found)") },
    call: async ({ caller, params }) => ({ body: await caller.purchases.get(params) }),
  }),
];
