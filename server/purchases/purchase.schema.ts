/** Schemas of assistant purchases (POST /purchases, GET /purchases, GET /purchases/{purchase_id}). Imports only zod and pure modules. */
import { z } from "zod";
import { publicPurchaseStatuses } from "./states";
import { ZMoney } from "../core/money-input";
import { ZIdempotencyKey } from "../checkout";
import { pageFields, ZPagination } from "../catalogue";

/** The body: only quote_id. Strict, so amount, status, person_id… are a 422 rather than silently trusted (B2-20). */
export const ZCreatePurchaseBody = z
  .object({
    quote_id: z
      .string({ error: "is required" })
      .min(1, "is required")
      .max(64, "must be at most 64 characters")
      .meta({
        description:
          "A quote this assistant made for this person, for the address saved in the person's account",
        example: "quo_3f1c2d9e6b0a4c549a5e2f4b",
      }),
  })
  .strict();

export const ZCreatePurchaseInput = ZCreatePurchaseBody.extend({
  idempotency_key: ZIdempotencyKey,
});

export const ZPurchase = z
  .object({
    purchase_id: z.string().meta({ example: "pur_5d0c1f2e3a4b5c6d7e8f9a0b" }),
    status: z.enum(publicPurchaseStatuses),
    order_number: z.string().nullable().meta({
      description: "Set once the hold is made (null while processing, or when the person must pay)",
    }),
    fulfilment: z.enum(["processing", "shipped"]),
    totals: z.object({ grand_total: ZMoney }),
    cancel_until: z.iso.datetime().meta({
      description:
        "Until when the person can cancel from their email; cancelling a held purchase releases the hold",
    }),
    charges_at: z.iso.datetime().nullable().meta({
      description: "While held, when the card will be charged; null once charged or closed",
    }),
    created_at: z.iso.datetime(),
    checkout: z
      .object({ checkout_id: z.string(), checkout_url: z.url(), expires_at: z.iso.datetime() })
      .nullable()
      .meta({ description: "Only with requires_person: a link for the person to pay themselves" }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().meta({
      description:
        "Why it was refused or cancelled by the service, or why the person must pay themselves; unknown codes mean other",
    }),
  })
  .meta({
    id: "Purchase",
    // A held purchase: a whole object, since its fields only make sense together (no checkout or error while held).
    example: {
      purchase_id: "pur_5d0c1f2e3a4b5c6d7e8f9a0b",
      status: "held",
      order_number: "SO-7K2M9QXD",
      fulfilment: "processing",
      totals: { grand_total: { amount: "159.33", currency: "CAD" } },
      cancel_until: "2026-11-25T15:30:00.000Z",
      charges_at: "2026-11-25T15:30:00.000Z",
      created_at: "2026-11-24T15:30:00.000Z",
      checkout: null,
      error: null,
    },
  });
export type TPurchase = z.output<typeof ZPurchase>;

/** What POST /purchases answers: the HTTP status and body (a Purchase, or an error body for a refusal), stored for replays. */
export type TPurchaseOutcome = {
  status: number;
  body: TPurchase | { error: { code: string; message: string } & Record<string, unknown> };
};

export const ZPurchaseIdParams = z.object({
  purchase_id: z
    .string()
    .min(1)
    .max(64, "must be at most 64 characters")
    .meta({ example: "pur_5d0c1f2e3a4b5c6d7e8f9a0b" }),
});

/** GET /purchases: a page of the person's purchases through this assistant, paged as search is. */
export const ZListPurchasesRequest = z.object(pageFields).strict();

export const ZListPurchasesResponse = z.object({
  data: z.array(ZPurchase),
  pagination: ZPagination,
});
