/** Schemas of any-of price watch groups (POST/GET /price-watch-groups, GET/DELETE /price-watch-groups/{price_watch_group_id}). Imports only zod. */
import { z } from "zod";
import { parseCents } from "../../core/money";
import { ZAmountInput, ZMoney } from "../../core/money-input";
import { optional, wholeNumber, ZIntId } from "../../core/zod";
import { ZPagination } from "../../catalogue";
import { ZCreatePriceWatchBody, ZListPriceWatchesQuery, ZPriceWatch } from "../price-watch.schema";
import { watchDays } from "../states";
import { maxAlternatives, priceWatchGroupStatuses } from "./group-states";

const ZAlternative = z
  .object({
    catalog_item_id: ZCreatePriceWatchBody.shape.catalog_item_id,
    size: ZCreatePriceWatchBody.shape.size,
    max_price: optional(ZAmountInput).meta({
      description:
        "Optional. This item qualifies when its price is this or less, before shipping and tax (CAD), and the total is within max_total; left out, only max_total applies to it",
      example: 80,
    }),
  })
  .strict();

export const ZCreatePriceWatchGroupBody = z
  .object({
    alternatives: z
      .array(ZAlternative, { error: "must be a list of items" })
      .min(1, "must name at least 1 item")
      .max(maxAlternatives, `must name at most ${maxAlternatives} items`)
      .meta({
        description: `1 to ${maxAlternatives} items, each once; the first that qualifies is bought and the others end`,
      }),
    max_total: ZAmountInput.meta({
      description: "Most to spend on the one purchase, including shipping and tax (CAD)",
      example: 100,
    }),
    days: optional(wholeNumber(watchDays.min, watchDays.max)).meta({
      description: `How long the watch lasts, ${watchDays.min} to ${watchDays.max} days; ${watchDays.default} when omitted or null`,
      example: 7,
    }),
  })
  .strict()
  .superRefine((input, ctx) => {
    const seen = new Set<string>();
    input.alternatives.forEach((alternative, index) => {
      if (seen.has(alternative.catalog_item_id))
        ctx.addIssue({
          code: "custom",
          path: ["alternatives", index, "catalog_item_id"],
          message: `alternative ${index + 1} names an item already in this group: each item once`,
        });
      seen.add(alternative.catalog_item_id);
      if (
        alternative.max_price !== undefined &&
        parseCents(alternative.max_price) > parseCents(input.max_total)
      )
        ctx.addIssue({
          code: "custom",
          path: ["alternatives", index, "max_price"],
          message: `alternative ${index + 1}: must be at most max_total, the total being the price plus shipping and tax`,
        });
    });
  });

export const ZPriceWatchGroupIdParams = z.object({
  price_watch_group_id: z
    .string({ error: "must be a price watch group id" })
    .regex(/^pwg_[A-Za-z0-9]{1,60}$/, "must be a price watch group id")
    .meta({ example: "pwg_4f1c2a9e7b3d5f60a1b2c3d4" }),
});

export const ZListPriceWatchGroupsQuery = ZListPriceWatchesQuery;

export const ZPriceWatchGroup = z
  .object({
    price_watch_group_id: z.string().meta({ example: "pwg_4f1c2a9e7b3d5f60a1b2c3d4" }),
    status: z.enum(priceWatchGroupStatuses).meta({
      description:
        "active, executing (one alternative buying now), fulfilled, needs_you, cancelled, expired",
    }),
    outcome: z.string().nullable().meta({
      description:
        "Why it ended, once it has: bought, card_declined, authentication_required, expired, over_your_total, cancelled, item_sold (every alternative sold), limits_lowered, purchases_paused, assistant_disconnected, payment_failed, ... (open list: treat unknown values as other)",
      example: null,
    }),
    max_total: ZMoney,
    claimed_price_watch_id: ZIntId(4821).nullable().meta({
      description: "The alternative that is buying or bought (its price_watch_id), once one is",
      example: null,
    }),
    purchase_id: z.string().nullable().meta({
      description: "The group's one purchase (GET /purchases/{purchase_id}), once it has",
      example: null,
    }),
    order_number: z.string().nullable().meta({ description: "Set when it bought", example: null }),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    alternatives: z.array(ZPriceWatch).meta({
      description:
        "Its alternatives, each a price watch (also in GET /price-watches, with price_watch_group_id). Once one bought, the others end cancelled with outcome fulfilled_by_alternative",
    }),
  })
  .meta({ id: "PriceWatchGroup" });
export type TPriceWatchGroup = z.output<typeof ZPriceWatchGroup>;

export const ZPriceWatchGroupList = z.object({
  data: z.array(ZPriceWatchGroup),
  pagination: ZPagination,
});
