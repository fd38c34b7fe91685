/** Schemas of the person's orders (GET /me/orders). Imports only zod. */
import { z } from "zod";
import { optional, wholeNumber } from "../core/zod";
import { ZPagination, ZStoreSummary } from "../catalogue";
import { ZMoney } from "../core/money-input";
import { ZQuoteLine, ZTaxLine, ZTotals } from "../checkout";
import { ZTracking } from "../checkout";

export const ZListMyOrdersRequest = z
  .object({
    page: optional(wholeNumber(1, 2000))
      .transform((value) => value ?? 1)
      .meta({ example: 1 }),
    per_page: optional(wholeNumber(1, 50))
      .transform((value) => value ?? 20)
      .meta({ example: 20 }),
  })
  .strict();

export const ZGetMyOrderRequest = z
  .object({
    order_number: z
      .string({ error: "is required" })
      .min(1, "is required")
      .max(40, "must be at most 40 characters")
      .meta({
        description: "An order_number from GET /me/orders (list_my_orders)",
        example: "SO-7K2M9QXD-1",
      }),
  })
  .strict();

/** Open list (clients treat unknown values as other). */
const orderStatuses = ["paid", "held", "cancelled", "refunded"] as const;
const ZOrderStatus = z.enum(orderStatuses).meta({
  description:
    "paid; for an assistant purchase's order also held (the card is on hold until the purchase's charges_at; the person can still cancel), cancelled (cancelled, or refused by the bank, before the charge: nothing was charged; or cancelled by the store, refunded in full) and refunded (the whole order given back). An open list: treat unknown values as other.",
  example: "paid",
});
export type TOrderStatus = z.infer<typeof ZOrderStatus>;

export const ZOrder = z
  .object({
    order_number: z.string().meta({
      description: "This store's order: the checkout's order number and the store's position",
      example: "SO-7K2M9QXD-1",
    }),
    checkout_order_number: z.string().meta({
      description:
        "The order number of the whole checkout or assistant purchase, shared by its stores",
      example: "SO-7K2M9QXD",
    }),
    purchase_id: z.string().nullable().meta({
      description:
        "The assistant purchase that placed this order (null for an order paid at a checkout link)",
      example: null,
    }),
    placed_at: z.iso.datetime(),
    status: ZOrderStatus,
    fulfilment: z.enum(["processing", "shipped"]),
    store: ZStoreSummary,
    items: z.array(ZQuoteLine),
    shipping: z.object({
      key: z.string().meta({ example: "standard" }),
      label: z.string().meta({ example: "Canada Post Expedited" }),
      amount: ZMoney,
    }),
    tax_lines: z.array(ZTaxLine),
    totals: ZTotals,
    refunded: ZMoney.meta({
      description:
        "Given back to the person's card so far (0.00 when nothing); the status is refunded once it is the whole order, cancelled when the store cancelled it",
    }),
    tracking: ZTracking.nullable(),
  })
  .meta({ id: "Order" });

export const ZListMyOrdersResponse = z.object({ data: z.array(ZOrder), pagination: ZPagination });
