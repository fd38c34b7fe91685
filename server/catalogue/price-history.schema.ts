/** The price history operation's response (GET /products/{id}/price-history). Imports only zod. */
import { z } from "zod";
import { ZMoney } from "../core/money-input";

const ZPricePoint = z
  .object({
    price: ZMoney,
    from: z.iso
      .datetime()
      .meta({ description: "When this price took effect (the first: when the item was listed)" }),
    to: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When the next price replaced it; null for the price now" }),
  })
  .meta({ id: "PricePoint" });

export const ZPriceHistory = z
  .object({
    catalog_item_id: z.string().meta({ description: "The item id as a string", example: "48213" }),
    currency: z.literal("CAD"),
    points: z.array(ZPricePoint).meta({
      description:
        "Every price the item has had, oldest first, the last one the price now. At most the newest 500: older ones are left out when `truncated` is true (the lows below still count them)",
    }),
    truncated: z
      .boolean()
      .meta({ description: "True when older points were left out of `points`" }),
    lowest_30_days: ZMoney,
    lowest_90_days: ZMoney,
    lowest_since_listed: ZMoney,
    previous_price: ZMoney.nullable(),
    change_from_previous: z
      .object({
        amount: z.string().meta({
          description: "Price now minus previous_price, in CAD, signed (a drop is negative)",
          example: "-20.00",
        }),
        percent: z.string().meta({
          description:
            "The change as a percentage of previous_price, signed, one decimal, rounded half away from zero",
          example: "-13.8",
        }),
      })
      .nullable()
      .meta({ description: "null when the price never changed" }),
  })
  .meta({
    id: "PriceHistory",
    description:
      "lowest_30_days and lowest_90_days: the lowest price in effect at any time in the last 30 or 90 days (a price that held into the window counts); lowest_since_listed: the lowest price the item ever had; previous_price: the price before the latest change, null when the price never changed.",
  });
