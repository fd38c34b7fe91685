/** Schemas of price alerts (POST/GET /price-alerts, DELETE /price-alerts/{price_alert_id}; 1.6.0). Imports only zod. */
import { z } from "zod";
import { pageFields, ZPagination } from "../catalogue";
import { ZMoney } from "../core/money-input";
import { ZAmountInput } from "../core/money-input";
import { dropPercentRange, exactlyOne, isObjectPayload, wholeNumber } from "../core/zod";

/** Live alerts one person may hold, all apps together (409 too_many_alerts beyond). */
export const liveAlertsPerPerson = 100;

/** An item id as the reference writes it ("123"); a JSON integer is read the same. */
const ZCatalogItemId = z
  .union([z.string(), z.number()], { error: 'must be an item id like "123"' })
  .transform((value) => String(value).trim())
  .refine((value) => /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2_147_483_647, {
    message: 'must be an item id like "123"',
  })
  .transform(Number)
  .meta({ description: "The item's id (a ProductSummary's id), as a string", example: "123" });

/** Strict: status, person_id… in the body are a 422 rather than silently ignored. */
export const ZCreatePriceAlertBody = z
  .object({
    catalog_item_id: ZCatalogItemId,
    target_price: ZAmountInput.nullish()
      .transform((value) => value ?? undefined)
      .meta({
        description:
          "Email the person when the item's price is this or less (CAD, before shipping and tax). Give this or drop_percent, not both",
        example: 12.34,
      }),
    drop_percent: wholeNumber(dropPercentRange.min, dropPercentRange.max)
      .nullish()
      .transform((value) => value ?? undefined)
      .meta({
        description: `Instead of target_price (1.9.0): email when the price is this many percent (${dropPercentRange.min} to ${dropPercentRange.max}) below the price when the alert is set; the alert keeps the price that makes (rounded down to the cent) as its target_price`,
        // null in the example: it shows an alert set with target_price (one of the two).
        example: null,
      }),
  })
  .strict()
  // Exactly one of target_price and drop_percent (null: left out), checked even when other fields
  // are invalid, so a body with neither names both (as POST /price-watches with max_price).
  .superRefine(exactlyOne("target_price", "drop_percent"), { when: isObjectPayload });

/** Paginated like search (page 1 to 2000, per_page 1 to 48, default 24). */
export const ZListPriceAlertsQuery = z.object(pageFields).strict();

export const ZPriceAlertIdParams = z.object({
  price_alert_id: z
    .string()
    .min(1, "is required")
    .max(64, "must be at most 64 characters")
    .meta({ example: "alr_5d0c1f2e3a4b5c6d7e8f9a0b" }),
});

const priceAlertStatuses = ["active", "notified", "stopped"] as const;

export const ZPriceAlert = z
  .object({
    price_alert_id: z.string().meta({ example: "alr_5d0c1f2e3a4b5c6d7e8f9a0b" }),
    status: z.enum(priceAlertStatuses).meta({
      description:
        "active until the price reaches the target (notified: the one email was sent) or it is stopped",
    }),
    catalog_item_id: z.string().meta({ example: "123" }),
    title: z.string().meta({ example: "Double-breasted wool coat" }),
    url: z.url().meta({
      description: "The item's page in its store",
      example: "https://maison-lumiere.example.ca/products/double-breasted-wool-coat",
    }),
    store: z.string().meta({ description: "The store's slug", example: "maison-lumiere" }),
    target_price: ZMoney.meta({
      description:
        "The price it emails at or under (with drop_percent: the price that percentage made when it was set)",
    }),
    drop_percent: z.number().int().min(1).max(90).meta({ example: 20 }).nullable().meta({
      description:
        "The percentage below the price at creation it was set with; null when target_price was given",
      example: null,
    }),
    current_price: ZMoney,
    // null in the example: it shows an alert still active.
    notified_price: ZMoney.nullable().meta({
      description: "The price that reached the target, once notified",
      example: null,
    }),
    created_at: z.iso.datetime(),
    notified_at: z.iso.datetime().nullable().meta({ example: null }),
    stopped_at: z.iso.datetime().nullable().meta({ example: null }),
  })
  .meta({ id: "PriceAlert" });
export type TPriceAlert = z.output<typeof ZPriceAlert>;

export const ZPriceAlertList = z
  .object({ data: z.array(ZPriceAlert), pagination: ZPagination })
  .meta({ id: "PriceAlertList" });
export type TPriceAlertList = z.output<typeof ZPriceAlertList>;
