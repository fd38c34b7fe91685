/** Schemas of checkout sessions (POST, GET, cancel) and the Idempotency-Key header. Imports only zod. */
import { z } from "zod";
import { optional } from "../core/zod";
import { ZStoreSummary } from "../catalogue";
import { ZMoney } from "../core/money-input";
import { ZQuoteLine, ZTaxLine, ZTotals } from "./checkout.schema";

/** Up to 64 characters of [A-Za-z0-9_-], optionally in double quotes (IETF draft form). */
export const ZIdempotencyKey = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? "is required: send a unique key (a UUID) per checkout"
        : "must be a string",
  })
  .transform((value) => value.trim().replace(/^"(.*)"$/, "$1"))
  .pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -"),
  )
  .meta({ example: "3f1c2d9e-6b0a-4c54-9a5e-2f4b7d1e8c90" });

export const ZIdempotencyHeaders = z.object({ "Idempotency-Key": ZIdempotencyKey });

export const ZCreateCheckoutBody = z
  .object({
    quote_id: z
      .string({ error: "is required" })
      .min(1, "is required")
      .max(64, "must be at most 64 characters")
      .meta({ example: "quo_3f1c2d9e6b0a4c549a5e2f4b" }),
    email: z
      .email({ error: "must be an email address" })
      .max(254)
      .meta({ description: "Where confirmation and tracking are sent", example: "ana@example.ca" }),
    first_name: optional(z.string().trim().max(100, "must be at most 100 characters")).meta({
      example: "Ana",
    }),
    last_name: optional(z.string().trim().max(100, "must be at most 100 characters")).meta({
      example: "Tremblay",
    }),
    shipping_selections: optional(
      z.record(
        z.string(),
        z
          .string({ error: "must be a shipping option key" })
          .max(40, "must be a shipping option key"),
      ),
    ).meta({
      description:
        "Store slug to shipping option key; each store left out (or null) gets its cheapest option",
      example: { "maison-lumiere": "express" },
    }),
  })
  .strict();

export const ZCreateCheckoutInput = ZCreateCheckoutBody.extend({
  idempotency_key: ZIdempotencyKey,
});

const checkoutStatuses = ["awaiting_payment", "paid", "cancelled", "expired"] as const;

export const ZCheckout = z
  .object({
    checkout_id: z.string().meta({ example: "chk_5d0c1f2e3a4b5c6d7e8f9a0b" }),
    status: z.enum(checkoutStatuses),
    checkout_url: z.url().meta({
      description: "The page the person opens to review, accept the terms and pay",
      example: "https://shopping.example.ca/checkout/chk_5d0c1f2e3a4b5c6d7e8f9a0b",
    }),
    expires_at: z.iso.datetime(),
    order_number: z
      .string()
      .nullable()
      .meta({ description: "Set once paid", example: "SO-7K2M9QXD" }),
    totals: ZTotals,
  })
  .meta({ id: "Checkout" });
export type TCheckout = z.output<typeof ZCheckout>;

export const ZTracking = z
  .object({
    carrier: z.string().meta({ example: "Canada Post" }),
    tracking_number: z.string().meta({ example: "7023210039414604" }),
    shipped_at: z.iso.datetime(),
  })
  .meta({ id: "Tracking" });

export const ZStoreOrder = z
  .object({
    order_number: z.string().meta({
      description: "The checkout's order number and the store's position",
      example: "SO-7K2M9QXD-1",
    }),
    fulfilment: z.enum(["processing", "shipped"]),
    tracking: ZTracking.nullable(),
  })
  .meta({ id: "StoreOrder" });

export const ZCheckoutDetail = ZCheckout.extend({
  email: z.string().meta({ example: "ana@example.ca" }),
  created_at: z.iso.datetime(),
  paid_at: z.iso.datetime().nullable(),
  closed_reason: z.string().nullable().meta({
    description:
      "Why the service closed it: price_changed or item_unavailable at payment; null otherwise",
    example: null,
  }),
  stores: z.array(
    z.object({
      store: ZStoreSummary,
      items: z.array(ZQuoteLine),
      shipping: z.object({
        key: z.string().meta({ example: "standard" }),
        label: z.string().meta({ example: "Canada Post Expedited" }),
        amount: ZMoney,
      }),
      tax_lines: z.array(ZTaxLine),
      totals: ZTotals,
      order: ZStoreOrder.nullable().meta({ description: "This store's order once paid" }),
    }),
  ),
}).meta({ id: "CheckoutDetail" });
export type TCheckoutDetail = z.output<typeof ZCheckoutDetail>;

export const ZCheckoutIdParams = z.object({
  checkout_id: z
    .string()
    .min(1)
    .max(64, "must be at most 64 characters")
    .meta({ example: "chk_5d0c1f2e3a4b5c6d7e8f9a0b" }),
});
