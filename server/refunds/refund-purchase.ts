/**
 * `purchase:refund PUR_ID [--amount]`: an assistant purchase refunded through its store orders. In
 * full: each order's remainder (the purchase moves to `refunded` with the last). A partial amount
 * names one order, so a purchase of several stores' items is refunded per order (order:refund).
 */
import { AppError } from "../core/errors";
import type { Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { refundOrder, type RefundOutcome } from "./refund-order";
import { findPurchaseOrderNumbers } from "./store";

export const refundPurchase = async (
  db: Db,
  provider: PaymentProvider,
  request: { purchaseId: string; amountCents?: number; reason: string; now: Date },
): Promise<RefundOutcome[]> => {
  const numbers = await findPurchaseOrderNumbers(db, request.purchaseId);
  if (!numbers.length)
    throw new AppError("not_found", {
      message: `No charged purchase ${request.purchaseId} (a purchase has orders once its card is held).`,
    });
  if (request.amountCents !== undefined && numbers.length > 1)
    throw new AppError("invalid_request", {
      message: `Purchase ${request.purchaseId} has ${numbers.length} store orders (${numbers.join(", ")}): refund a part with order:refund ORDER_NUMBER --amount.`,
    });
  const outcomes: RefundOutcome[] = [];
  for (const orderNumber of numbers) {
    try {
      outcomes.push(
        await refundOrder(db, provider, {
          orderNumber,
          amountCents: request.amountCents,
          reason: request.reason,
          source: "operator",
          now: request.now,
        }),
      );
    } catch (error) {
      // An order already refunded in full (an earlier run): the others still are.
      if (!(error instanceof AppError && error.code === "not_refundable" && numbers.length > 1))
        throw error;
    }
  }
  return outcomes;
};
