/** Schemas of the sandbox helpers (POST /sandbox/orders/{order}/ship, POST /sandbox/checkouts/{checkout_id}/expire). */
import { z } from "zod";
import { optional } from "../core/zod";
import { ZPurchaseIdParams } from "../purchases";
import { ZAmountInput } from "../core/money-input";
import { ZMoney } from "../core/money-input";

export const ZShipOrderParams = z.object({
  order: z
    .string()
    .min(1)
    .max(40, "must be at most 40 characters")
    .meta({ example: "SO-7K2M9QXD-1" }),
});

const ZShipOrderFields = z
  .object({
    carrier: optional(z.string().trim().min(1).max(60)).meta({
      description: "Default Canada Post",
      example: "Canada Post",
    }),
    tracking_number: optional(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9 -]{4,40}$/, "must be 4 to 40 letters, digits, spaces or dashes"),
    ).meta({ description: "Default: a generated number", example: "7023210039414604" }),
  })
  .strict();

/** The body is optional: no body ships with the defaults. */
export const ZShipOrderBody = ZShipOrderFields.optional().transform((value) => value ?? {});

export const ZShipOrderInput = ZShipOrderParams.extend(ZShipOrderFields.shape);

/** POST /sandbox/purchases/{purchase_id}/resolve (advance takes only the path's purchase_id). */
export const ZResolvePurchaseBody = z
  .object({
    outcome: z.enum(["authorized", "declined"]).meta({
      description:
        "The bank's late answer: authorized (the purchase becomes held) or declined (requires_person)",
    }),
  })
  .strict();

export const ZResolvePurchaseInput = ZPurchaseIdParams.extend(ZResolvePurchaseBody.shape);

/** POST /sandbox/items/{item_id}/price. */
export const ZItemIdParams = z.object({
  item_id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "must be an item id")
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, "must be an item id"))
    .meta({ example: "48213" }),
});

export const ZSetItemPriceBody = z
  .object({
    price: ZAmountInput.meta({
      description: 'The item\'s new price in CAD, e.g. "12.34"',
      example: "12.34",
    }),
  })
  .strict();

export const ZSetItemPriceInput = z.object({
  item_id: z.number().int().positive(),
  price: ZAmountInput,
});

export const ZItemPriceChange = z.object({
  catalog_item_id: z.string().meta({ example: "48213" }),
  old_price: ZMoney,
  price: ZMoney,
  changed: z
    .boolean()
    .meta({ description: "False when the price already was this (no price change is recorded)" }),
});

const conditions = ["new_with_tags", "new_without_tags", "excellent", "good", "fair"] as const;

/** POST /sandbox/items: an item listed in a store, as a store's feed would list it (1.9.0). */
export const ZListItemBody = z
  .object({
    store: z
      .string()
      .trim()
      .min(1, "is required")
      .max(63, "must be at most 63 characters")
      .meta({ description: "The store's slug", example: "maison-lumiere" }),
    title: z
      .string()
      .trim()
      .min(1, "is required")
      .max(200, "must be at most 200 characters")
      .meta({ example: "Double-breasted wool coat" }),
    brand: optional(z.string().trim().min(1).max(100)).meta({ example: "Atelier Nord" }),
    category: optional(z.string().trim().min(1).max(300)).meta({
      description: "A category path from GET /categories",
      example: "Women > Outerwear",
    }),
    description: optional(z.string().max(2000)).meta({ example: "Warm and light." }),
    price: ZAmountInput.meta({ description: "CAD", example: "129.00" }),
    condition: optional(z.enum(conditions)).meta({ example: "excellent" }),
    sizes: optional(z.array(z.string().trim().min(1).max(40)).max(20)).meta({
      description: "As the store lists them; one variant each (none: one size)",
      example: ["S", "M"],
    }),
    color: optional(z.string().trim().min(1).max(40)).meta({ example: "Charcoal" }),
    quantity: optional(z.number().int().min(1).max(100)).meta({
      description: "Units of each size; 1 when omitted",
      example: 1,
    }),
  })
  .strict();

export const ZListedItem = z.object({
  catalog_item_id: z.string().meta({ example: "48213" }),
  price: ZMoney,
});
