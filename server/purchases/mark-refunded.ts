/** A paid purchase whose orders are all refunded moves to `refunded` (its partner hears purchase.refunded). */
import type { Tx } from "../platform/db";
import { movePurchase } from "./purchase-writer";

export const markPurchaseRefunded = (tx: Tx, options: { id: string; now: Date }) =>
  movePurchase(tx, { id: options.id, event: "refund", now: options.now });
