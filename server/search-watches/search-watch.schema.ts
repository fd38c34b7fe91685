/** Schemas of search watches (POST/GET /search-watches, GET/DELETE /search-watches/{search_watch_id}; 1.9.0). Imports only zod. */
import { z } from "zod";
import { checkPriceRange, ZPagination, ZSearchProductsRequest, pageFields } from "../catalogue";
import { ZAmountInput, ZMoney } from "../core/money-input";
import { optional, wholeNumber, ZIntCount } from "../core/zod";
import { searchWatchDays, searchWatchModes, searchWatchStatuses } from "./states";

const search = ZSearchProductsRequest.shape;

/** The filters of GET /products, validated exactly as search validates them (its own field schemas). */
export const searchFilterFields = {
  q: search.q,
  category: search.category,
  size: search.size,
  color: search.color,
  brand: search.brand,
  store: search.store,
  min_price: search.min_price,
  max_price: search.max_price,
};

const filterNames = Object.keys(searchFilterFields) as (keyof typeof searchFilterFields)[];

/** Strict: status, person_id… in the body are a 422 rather than silently ignored. */
export const ZCreateSearchWatchBody = z
  .object({
    mode: z.enum(searchWatchModes, { error: "must be notify or buy" }).meta({
      description:
        "notify: email the person about each new matching item (at most one email an hour, then a digest; scope alerts:write). buy: buy the first new match once within max_total, then end (scope purchase:write)",
      example: "buy",
    }),
    ...searchFilterFields,
    max_total: optional(ZAmountInput).meta({
      description: "buy only, and required there: most to spend including shipping and tax (CAD)",
      example: 120,
    }),
    days: optional(wholeNumber(searchWatchDays.min, searchWatchDays.max)).meta({
      description: `How long the watch lasts, ${searchWatchDays.min} to ${searchWatchDays.max} days; ${searchWatchDays.default} when omitted or null`,
      example: 7,
    }),
  })
  .strict()
  .superRefine((input, ctx) => {
    checkPriceRange(input, ctx);
    if (input.mode === "buy" && input.max_total === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["max_total"],
        message: "is required when mode is buy",
      });
    if (input.mode === "notify" && input.max_total !== undefined)
      ctx.addIssue({ code: "custom", path: ["max_total"], message: "is only for mode buy" });
    const hasFilter = filterNames.some((name) => {
      const value = input[name];
      return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== "";
    });
    if (!hasFilter)
      ctx.addIssue({
        code: "custom",
        path: ["q"],
        message:
          "give at least one filter (q, category, size, color, brand, store, min_price or max_price)",
      });
  });
export type TCreateSearchWatchBody = z.output<typeof ZCreateSearchWatchBody>;

export const ZListSearchWatchesQuery = z.object(pageFields).strict();

export const ZSearchWatchIdParams = z.object({
  search_watch_id: z
    .string()
    .min(1, "is required")
    .max(64, "must be at most 64 characters")
    .meta({ example: "srw_5d0c1f2e3a4b5c6d7e8f9a0b" }),
});

/** The filters as given (null where not given). */
const ZSearchWatchFilters = z
  .object({
    q: z.string().nullable().meta({ example: "wool coat" }),
    category: z.string().nullable().meta({ example: "Women > Outerwear" }),
    size: z.array(z.string()).meta({ example: ["M"] }),
    color: z.array(z.string()).meta({ example: [] }),
    brand: z.array(z.string()).meta({ example: [] }),
    store: z.string().nullable().meta({ example: null }),
    min_price: ZMoney.nullable().meta({ example: null }),
    max_price: ZMoney.nullable(),
  })
  .meta({ id: "SearchWatchFilters" });

const ZSearchWatchMatch = z
  .object({
    catalog_item_id: z.string().meta({ example: "48213" }),
    reason: z.enum(["new_listing", "price_change", "back_in_stock"]),
    price: ZMoney.meta({ description: "The item's price when it matched" }),
    matched_at: z.iso.datetime(),
    emailed_at: z.iso.datetime().nullable().meta({
      description:
        "When the email naming it was queued (notify); null while it waits for the digest",
      example: null,
    }),
  })
  .meta({ id: "SearchWatchMatch" });

export const ZSearchWatch = z
  .object({
    search_watch_id: z.string().meta({ example: "srw_5d0c1f2e3a4b5c6d7e8f9a0b" }),
    mode: z.enum(searchWatchModes),
    status: z.enum(searchWatchStatuses).meta({
      description:
        "active (watching), executing (buy: buying its match), fulfilled (bought), needs_you, cancelled, expired",
    }),
    outcome: z.string().nullable().meta({
      description:
        "Why it ended: bought, cancelled, expired, card_declined, limits_lowered, assistant_disconnected... (the list is open)",
      example: null,
    }),
    filters: ZSearchWatchFilters,
    max_total: ZMoney.nullable().meta({ description: "buy only", example: null }),
    matches_count: ZIntCount(3),
    recent_matches: z
      .array(ZSearchWatchMatch)
      .meta({ description: "The 10 most recent matches, newest first" }),
    catalog_item_id: z
      .string()
      .nullable()
      .meta({ description: "buy: the item it bought or is buying", example: null }),
    purchase_id: z.string().nullable().meta({ example: null }),
    order_number: z.string().nullable().meta({ example: null }),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    ended_at: z.iso.datetime().nullable().meta({ example: null }),
  })
  .meta({ id: "SearchWatch" });
export type TSearchWatch = z.output<typeof ZSearchWatch>;

export const ZSearchWatchList = z
  .object({ data: z.array(ZSearchWatch), pagination: ZPagination })
  .meta({ id: "SearchWatchList" });
