/** Schemas of price watches (POST/GET /price-watches, GET/DELETE /price-watches/{price_watch_id}). Imports only zod. */
import { z } from "zod";
import { ZIntId } from "../core/zod";
import { parseCents } from "../core/money";
import { priceWatchStatuses, watchDays } from "./states";
import { ZPagination } from "../catalogue";
import { ZMoney } from "../core/money-input";
import { ZAmountInput } from "../core/money-input";
import { optional } from "../core/zod";

const wholeNumber = z.coerce
  .number({ error: "must be a whole number" })
  .int("must be a whole number");

export const ZCreatePriceWatchBody = z
  .object({
    catalog_item_id: z
      .string({ error: 'must be an item id as a string, like "123"' })
      .regex(/^[1-9]\d{0,9}$/, 'must be an item id as a string, like "123"')
      .refine(
        (value) => Number(value) <= 2_147_483_647,
        'must be an item id as a string, like "123"',
      )
      .meta({ description: "The item to buy (catalog_item_id of GET /products)", example: "123" }),
    size: optional(
      z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters"),
    ).meta({
      description:
        "Optional. The size to buy (any spelling of it: MD and Med are both M). Left out: an item in one size needs none; otherwise the person's saved size the item comes in is used, and 409 size_required answers when none or several of their saved sizes are among the item's",
      example: "M",
    }),
    max_price: ZAmountInput.meta({
      description: "Buy when the item's price is this or less, before shipping and tax (CAD)",
      example: 80,
    }),
    max_total: ZAmountInput.meta({
      description: "Most to spend including shipping and tax (CAD); at least max_price",
      example: 100,
    }),
    days: optional(
      wholeNumber
        .min(watchDays.min, `must be at least ${watchDays.min}`)
        .max(watchDays.max, `must be at most ${watchDays.max}`),
    ).meta({
      description: `How long the watch lasts, ${watchDays.min} to ${watchDays.max} days; ${watchDays.default} when omitted or null`,
      example: 7,
    }),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (parseCents(input.max_total) < parseCents(input.max_price)) {
      ctx.addIssue({
        code: "custom",
        path: ["max_total"],
        message: "must be at least max_price: the total is the price plus shipping and tax",
      });
    }
  });

export const ZPriceWatchIdParams = z.object({
  price_watch_id: z.coerce
    .number({ error: "must be a price watch id" })
    .int("must be a price watch id")
    .min(1, "must be a price watch id")
    .max(2_147_483_647, "must be a price watch id")
    .meta({ example: 4821 }),
});

export const ZListPriceWatchesQuery = z
  .object({
    page: optional(wholeNumber.min(1, "must be at least 1").max(2000, "must be at most 2000"))
      .transform((value) => value ?? 1)
      .meta({ example: 1 }),
    per_page: optional(wholeNumber.min(1, "must be at least 1").max(48, "must be at most 48"))
      .transform((value) => value ?? 24)
      .meta({ example: 24 }),
  })
  .strict();

export const ZPriceWatch = z
  .object({
    price_watch_id: ZIntId(4821),
    status: z.enum(priceWatchStatuses).meta({
      description:
        "active, executing (buying now), fulfilled, item_sold, needs_you, cancelled, expired",
    }),
    catalog_item_id: z.string().meta({ example: "48213" }),
    title: z.string().meta({ example: "Double-breasted wool coat" }),
    size: z.string().nullable().meta({ example: "M" }),
    max_price: ZMoney,
    max_total: ZMoney,
    current_price: ZMoney,
    outcome: z.string().nullable().meta({
      description:
        "Why it ended, once it has: bought, item_sold, over_your_total, card_declined, authentication_required, limits_lowered, purchases_paused, assistant_disconnected, expired, cancelled; an any-of group's alternative also fulfilled_by_alternative, alternative_needs_you (open list: treat unknown values as other)",
      example: null,
    }),
    // null in the example: it shows a watch still active.
    order_number: z
      .string()
      .nullable()
      .meta({ description: "Set when it bought (the order is also in /me/orders)", example: null }),
    purchase_id: z.string().nullable().meta({
      description: "The purchase it made (GET /purchases/{purchase_id}), once it has",
      example: null,
    }),
    checkout_url: z.url().nullable().meta({
      description: "With needs_you: the link the person was emailed to pay themselves",
      example: null,
    }),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    price_watch_group_id: z.string().nullable().meta({
      description:
        "The any-of watch group it is an alternative of (GET /price-watch-groups/{price_watch_group_id}), or null (1.9.0)",
      example: null,
    }),
  })
  .meta({ id: "PriceWatch" });
export type TPriceWatch = z.output<typeof ZPriceWatch>;

export const ZPriceWatchList = z.object({ data: z.array(ZPriceWatch), pagination: ZPagination });
