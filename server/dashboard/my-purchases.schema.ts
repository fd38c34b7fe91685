/**
 * The dashboard's purchase list and cancel (/account/purchases): what the signed-in person sees of
 * the assistant purchases made for them. Imports only zod and pure modules, so the page can import it.
 */
import { z } from "zod";
import { publicPurchaseStatuses } from "../purchases";
import { ZMoney } from "../core/money-input";
import { refundSentBackReasons } from "../core/messages";

/** Purchases per page of the dashboard list. */
export const myPurchasesPageSize = 10;

export const ZListMyPurchasesInput = z
  .object({ page: z.number().int().min(1).max(1000).default(1) })
  .strict()
  .default({ page: 1 });

/** One item of a purchase as the list shows it (picture, title, size as listed, condition, store). */
const ZMyPurchaseItem = z.object({
  title: z.string(),
  size: z.string().nullable(),
  condition: z.string().nullable(),
  quantity: z.number().int(),
  image_url: z.string().nullable(),
  store: z.string(),
});
export type TMyPurchaseItem = z.infer<typeof ZMyPurchaseItem>;

const ZMyPurchase = z.object({
  purchase_id: z.string(),
  status: z.enum(publicPurchaseStatuses),
  reason: z.string().nullable(),
  order_number: z.string().nullable(),
  stores: z.array(z.string()),
  items: z.array(ZMyPurchaseItem),
  grand_total: ZMoney,
  /** Given back to the person's card so far (null when nothing was). */
  refunded: ZMoney.nullable(),
  /** Refunds being made or waiting at the bank (null when none). */
  refund_on_its_way: ZMoney.nullable(),
  /**
   * What the bank sent back after a refund had succeeded (null when nothing): the money did not
   * reach the card, is still the person's, and they will be contacted (the refund-failed email).
   */
  refund_sent_back: z
    .object({
      amount: ZMoney,
      at: z.string(),
      reason: z.enum(refundSentBackReasons),
    })
    .nullable(),
  assistant: z.string(),
  created_at: z.string(),
  charges_at: z.string().nullable(),
  cancel_until: z.string(),
  can_cancel: z.boolean(),
});
export type TMyPurchase = z.infer<typeof ZMyPurchase>;

export const ZMyPurchasesResponse = z.object({
  purchases: z.array(ZMyPurchase),
  page: z.number().int(),
  has_more: z.boolean(),
  now: z.string(),
  /** The person's zone (their saved province's, else Toronto's): the page shows times in it. */
  time_zone: z.string(),
});
export type TMyPurchasesResponse = z.infer<typeof ZMyPurchasesResponse>;

export const ZCancelMyPurchaseInput = z.object({ purchase_id: z.string().min(1).max(64) }).strict();
