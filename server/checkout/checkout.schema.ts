/**
 * Request and response schemas of quotes and checkout sessions. Imports only zod and pure domain
 * helpers, so forms and the OpenAPI builder can import it. Field names are the wire names.
 */
import { z } from "zod";
import { optional, ZIntCount, ZIntId, ZIntPage } from "../core/zod";
import {
  type TCanadianAddress,
  ZCanadianAddressResponse,
  ZCanadianAddressSchema,
} from "../core/address";
import { ZStoreSummary } from "../catalogue";
import { ZMoney } from "../core/money-input";

const text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);
const wholeNumber = z.number({ error: "must be a whole number" }).int("must be a whole number");

const ZQuoteItemRequest = z
  .object({
    item_id: wholeNumber.min(1, "must be at least 1").max(2147483647).meta({ example: 48213 }),
    size: optional(text(40)).meta({
      description:
        "As listed in the item's variants, any spelling of it (MD and Med are both M); optional when the item comes in one size",
      example: "M",
    }),
    quantity: optional(wholeNumber.min(1, "must be at least 1").max(10, "must be at most 10"))
      .transform((value) => value ?? 1)
      .meta({ example: 1 }),
  })
  .strict();

export const ZCreateQuoteRequest = z
  .object({
    items: z
      .array(ZQuoteItemRequest, { error: "must be a list of items" })
      .min(1, "must list at least one item")
      .max(50, "must list at most 50 items"),
    shipping_address: ZCanadianAddressSchema,
    email: optional(z.email({ error: "must be an email address" }).max(254)).meta({
      example: "ana@example.ca",
    }),
  })
  .strict();
/** The quote's shipping address as parsed: normalised, stored with the quote. */
export type TShippingAddress = TCanadianAddress;

const ZDeliveryEstimate = z
  .object({
    min_days: ZIntCount(2, 60),
    max_days: ZIntCount(5, 60),
    earliest: z.iso.date(),
    latest: z.iso.date(),
  })
  .meta({
    id: "DeliveryEstimate",
    description: "Business days after today at the destination, and the dates they give",
    example: { min_days: 2, max_days: 5, earliest: "2026-11-25", latest: "2026-11-28" },
  });

export const ZTotals = z
  .object({
    subtotal: ZMoney,
    discount: ZMoney,
    shipping: ZMoney,
    tax: ZMoney,
    grand_total: ZMoney,
  })
  .meta({
    id: "Totals",
    description: "subtotal - discount + shipping + tax = grand_total, exactly",
    example: {
      subtotal: { amount: "129.00", currency: "CAD" },
      discount: { amount: "0.00", currency: "CAD" },
      shipping: { amount: "12.00", currency: "CAD" },
      tax: { amount: "18.33", currency: "CAD" },
      grand_total: { amount: "159.33", currency: "CAD" },
    },
  });

export const ZTaxLine = z
  .object({
    name: z.enum(["GST", "HST", "PST", "QST"]),
    jurisdiction: z
      .string()
      .meta({ description: "CA for the federal GST, else the province code", example: "CA" }),
    rate: z.string().meta({ example: "9.975%" }),
    amount: ZMoney,
  })
  .meta({
    id: "TaxLine",
    description:
      "Charged on the store's items after discount plus its shipping; rounded half-up to the cent once per line",
  });

const ZShippingOption = z
  .object({
    key: z.string().meta({ example: "standard" }),
    label: z.string().meta({ example: "Canada Post Expedited" }),
    amount: ZMoney,
    free: z.boolean().meta({ description: "Made free by the store's free-shipping offer" }),
    cheapest: z.boolean(),
    delivery_estimate: ZDeliveryEstimate,
    totals: ZTotals.meta({ description: "The store's totals if this option is chosen" }),
  })
  .meta({ id: "ShippingOption" });

const ZFreeShipping = z
  .object({
    threshold: ZMoney,
    qualifies: z.boolean(),
    remaining: ZMoney.meta({
      description: "How much more in this store's items would qualify; 0.00 when it qualifies",
    }),
  })
  .meta({
    id: "FreeShippingOffer",
    description:
      "The store's offer: its cheapest service is free once its item subtotal reaches threshold",
  });

export const ZQuoteLine = z.object({
  item_id: ZIntId(48213),
  title: z.string().meta({ example: "Double-breasted wool coat" }),
  size: z.string().nullable().meta({ example: "M" }),
  color: z.string().nullable().meta({ example: "Charcoal" }),
  quantity: ZIntPage(1, 99),
  unit_price: ZMoney,
  line_total: ZMoney,
  image: z.url().nullable().meta({ example: "https://shopping.example.ca/images/48213/cover.jpg" }),
  url: z
    .url()
    .meta({ example: "https://maison-lumiere.example.ca/products/double-breasted-wool-coat" }),
});

const ZQuoteStore = z
  .object({
    store: ZStoreSummary,
    items: z.array(ZQuoteLine),
    shipping_options: z.array(ZShippingOption),
    selected_shipping: z.string().meta({
      description: "The option the totals use: the cheapest unless chosen otherwise",
      example: "standard",
    }),
    free_shipping: ZFreeShipping.nullable(),
    tax_lines: z.array(ZTaxLine),
    totals: ZTotals,
  })
  .meta({ id: "QuoteStore" });

export const unavailableReasons = [
  "not_found",
  "sold",
  "out_of_stock",
  "store_unavailable",
] as const;

export const ZUnavailableItem = z
  .object({
    item_id: ZIntId(48213),
    size: z.string().nullable().meta({ example: "M" }),
    quantity: ZIntPage(1, 99),
    reason: z.enum(unavailableReasons),
  })
  .meta({ id: "UnavailableItem" });

export const ZQuote = z
  .object({
    quote_id: z.string().meta({ example: "quo_3f1c2d9e6b0a4c549a5e2f4b" }),
    expires_at: z.iso.datetime(),
    email: z.string().nullable().meta({ example: "ana@example.ca" }),
    shipping_address: ZCanadianAddressResponse,
    stores: z.array(ZQuoteStore),
    unavailable_items: z.array(ZUnavailableItem).meta({
      description: "Requested items that cannot be bought now; the rest of the quote stands",
    }),
    totals: ZTotals,
  })
  .meta({ id: "Quote" });
export type TQuote = z.output<typeof ZQuote>;
