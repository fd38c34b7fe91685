/**
 * Completes a checkout payment from what the processor says about its PaymentIntent now, whoever
 * learns of it first (Stripe's webhook, or the browser's return): authorized → the orders are placed
 * once and the hold captured (finalizePayment, under the checkout's lock); a decline or a void is
 * recorded on the attempt, guarded by the status it leaves. Safe to repeat and to run out of order:
 * the processor is asked every time, and an attempt already settled is not moved back.
 *
 * Minimal version for the webhook branch: the checkout work of issue 23 replaces this file (same
 * name and signature).
 */
import type { Db } from "../../db";
import type { PaymentProvider } from "../../payments/provider";
import { finalizePayment } from "./finalize-payment";

export type CompleteIntentOutcome = "not_found" | "paid" | "closed" | "declined" | "voided" | "captured" | "unchanged";

export const completeCheckoutIntent = async (db: Db, provider: PaymentProvider, options: { processorPaymentId: string; now: Date }): Promise<CompleteIntentOutcome> => {
  const { processorPaymentId, now } = options;
  const payment = await db.payment.findFirst({
    where: { processorPaymentId, checkoutId: { not: null } },
    select: { id: true, checkoutId: true, attempt: true, status: true },
  });
  if (!payment) return "not_found";
  const found = await provider.retrieve({ paymentId: processorPaymentId });
  if (!found) return "not_found";
  switch (found.status) {
    case "authorized": {
      if (payment.status === "captured" || payment.status === "voided") return "unchanged";
      const result = await finalizePayment(db, provider, { payment: { id: payment.id, checkoutId: payment.checkoutId!, attempt: payment.attempt }, processorPaymentId, now });
      return result.outcome === "paid" ? "paid" : "closed";
    }
    case "captured": {
      const { count } = await db.payment.updateMany({ where: { id: payment.id, status: "authorized" }, data: { status: "captured" } });
      return count ? "captured" : "unchanged";
    }
    case "voided": {
      const { count } = await db.payment.updateMany({ where: { id: payment.id, status: { in: ["authorizing", "requires_action", "authorized"] } }, data: { status: "voided" } });
      return count ? "voided" : "unchanged";
    }
    case "declined": {
      const { count } = await db.payment.updateMany({ where: { id: payment.id, status: { in: ["authorizing", "requires_action"] } }, data: { status: "declined", declineCode: found.declineCode } });
      return count ? "declined" : "unchanged";
    }
    default:
      return "unchanged";
  }
};
