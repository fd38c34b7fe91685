/** Schemas of price watches (POST/GET /price-watches, GET/DELETE /price-watches/{price_watch_id}). Imports only zod. */
import { z } from "zod";
import { dropPercentRange, exactlyOne, isObjectPayload, ZIntCount, ZIntId } from "../core/zod";
import { parseCents } from "../core/money";
import { priceWatchStatuses, watchDays } from "./states";
import { ZPagination } from "../catalogue";
import { ZMoney } from "../core/money-input";
import { ZAmountInput } from "../core/money-input";
import { optional, wholeNumber, wholeNumberParam } from "../core/zod";
import { watchConditionNames } from "./conditions";

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
    max_price: optional(ZAmountInput).meta({
      description:
        "Buy when the item's price is this or less, before shipping and tax (CAD). Give this or drop_percent, not both",
      example: 80,
    }),
    drop_percent: optional(wholeNumber(dropPercentRange.min, dropPercentRange.max)).meta({
      description: `Instead of max_price (1.9.0): buy when the price is this many percent (${dropPercentRange.min} to ${dropPercentRange.max}) below the price when the watch is set; the watch keeps the price that makes (rounded down to the cent) as its max_price`,
      // null in the example: it shows a watch set with max_price (one of the two).
      example: null,
    }),
    max_total: ZAmountInput.meta({
      description: "Most to spend including shipping and tax (CAD); at least max_price",
      example: 100,
    }),
    days: optional(wholeNumber(watchDays.min, watchDays.max)).meta({
      description: `How long the watch lasts, ${watchDays.min} to ${watchDays.max} days; ${watchDays.default} when omitted or null`,
      example: 7,
    }),
  })
  .strict()
  // Runs even when other fields are invalid, so a body with neither names them both.
  .superRefine(exactlyOne("max_price", "drop_percent"), { when: isObjectPayload })
  .superRefine((input, ctx) => {
    if (
      input.max_price !== undefined &&
      parseCents(input.max_total) < parseCents(input.max_price)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["max_total"],
        message: "must be at least max_price: the total is the price plus shipping and tax",
      });
    }
  });

export const ZPriceWatchIdParams = z.object({
  price_watch_id: wholeNumberParam(1, 2_147_483_647, {
    message: "must be a price watch id",
    example: 4821,
  }),
});

export const ZListPriceWatchesQuery = z
  .object({
    page: optional(wholeNumber(1, 2000))
      .transform((value) => value ?? 1)
      .meta({ example: 1 }),
    per_page: optional(wholeNumber(1, 48))
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
    max_price: ZMoney.meta({
      description:
        "The price it buys at or under (with drop_percent: the price that percentage made when it was set)",
    }),
    drop_percent: z.number().int().min(1).max(90).meta({ example: 20 }).nullable().meta({
      description:
        "The percentage below the price at creation it was set with; null when max_price was given",
      example: null,
    }),
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

export type TCreatePriceWatchBody = z.output<typeof ZCreatePriceWatchBody>;

/** One condition of the preview (conditions.ts), in the fixed order; the values it compared. */
const ZWatchCondition = z
  .object({
    condition: z.enum(watchConditionNames).meta({
      description:
        "item_available, size, max_price, max_total (the total to the saved address with shipping and tax), assistant (purchases on for it), purchases_paused, per_order_limit, spending_room (what the 30-day limit has left), agent_checkout, saved_address, market (not Quebec), saved_card, watch_limit (25 live), already_watching",
    }),
    passed: z.boolean(),
    message: z.string().meta({ example: "The price is 80.00, within max_price 80.00" }),
    price: ZMoney.optional(),
    max_price: ZMoney.optional(),
    total: ZMoney.nullable().optional(),
    max_total: ZMoney.optional(),
    limit: ZMoney.nullable().optional(),
    room: ZMoney.nullable().optional(),
    agent_checkout: z.string().optional().meta({ example: "direct" }),
    province: z.string().nullable().optional().meta({ example: "ON" }),
    live_watches: ZIntCount(3).optional(),
    max_watches: ZIntCount(25).optional(),
    price_watch_id: ZIntId(4821).nullable().optional(),
  })
  .meta({ id: "PriceWatchCondition" });

export const ZPriceWatchPreview = z
  .object({
    would_buy_now: z.boolean().meta({
      description: "True when every condition passes: the watch, set now, would buy at once",
    }),
    catalog_item_id: z.string().meta({ example: "48213" }),
    size: z.string().nullable().meta({ example: "M" }),
    current_price: ZMoney,
    max_price: ZMoney.meta({ description: "As given, or the price drop_percent makes now" }),
    drop_percent: z
      .number()
      .int()
      .min(1)
      .max(90)
      .meta({ example: 20 })
      .nullable()
      .meta({ example: null }),
    max_total: ZMoney,
    conditions: z.array(ZWatchCondition),
    warnings: z.array(
      z.object({
        code: z.enum(["max_price_below_90_day_low"]),
        message: z.string().meta({
          example: "max_price 60.00 is below the lowest price of the last 90 days (72.00)",
        }),
        lowest_90_days: ZMoney,
      }),
    ),
  })
  .meta({ id: "PriceWatchPreview" });
export type TPriceWatchPreview = z.output<typeof ZPriceWatchPreview>;

const evaluationOutcomes = ["bought", "not_bought", "needs_you", "ended"] as const;

export const ZPriceWatchEvaluation = z
  .object({
    evaluated_at: z.iso.datetime(),
    price: ZMoney.meta({ description: "The item's price the evaluation saw" }),
    total: ZMoney.nullable().meta({
      description: "The total to the saved address (shipping and tax) when a quote was made",
      example: null,
    }),
    outcome: z.enum(evaluationOutcomes).meta({
      description: "bought, not_bought (the watch stays live), needs_you, ended (the watch ended)",
    }),
    failed_condition: z.string().nullable().meta({
      description:
        "The first condition that failed (a condition of POST /price-watches/preview, or expired, payment); null when it bought",
      example: "max_price",
    }),
  })
  .meta({ id: "PriceWatchEvaluation" });

export const ZListPriceWatchEvaluationsRequest = ZPriceWatchIdParams.extend(
  ZListPriceWatchesQuery.shape,
).strict();

export const ZPriceWatchEvaluationList = z
  .object({ data: z.array(ZPriceWatchEvaluation), pagination: ZPagination })
  .meta({ id: "PriceWatchEvaluationList" });
