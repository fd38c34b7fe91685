/**
 * After the processor holds the money: under the checkout's lock, place the orders if it is still
 * awaiting payment and record this attempt as the one that paid, then capture; if it closed
 * meanwhile (expired, cancelled, or paid by another attempt), release the hold instead. Only the
 * recorded attempt is ever captured. Safe to repeat: the paying attempt is recognised by the
 * checkout's paid_payment_id, and the processor calls reuse their keys. A capture that fails is
 * retried by server/payments/settle-payments.ts.
 */
import type { Db } from "../../db";
import { notifyCheckoutClosed } from "../../jobs/events";
import { capturePayment, releasePayment } from "../../payments/payment-steps";
import type { PaymentProvider } from "../../payments/provider";
import { moveCheckouts } from "../checkout/checkout-transitions";
import { lockCheckout } from "./payment-attempt";
import type { PayOutcome } from "./page.schema";
import { placeOrders } from "./place-orders";

type Attempt = { id: string; checkoutId: string; attempt: number };

const lapsedMessage =
  "This checkout link expired before the payment was confirmed: the hold on your card was released and nothing was charged. Ask the app that sent you here for a new checkout link.";

/** Places the orders and captures, or releases the hold when the checkout closed or lapsed meanwhile. */
export const finalizePayment = async (db: Db, provider: PaymentProvider, options: { payment: Attempt; processorPaymentId: string; now: Date }): Promise<PayOutcome> => {
  const { payment, processorPaymentId, now } = options;
  const decision = await db.$transaction(async (tx): Promise<{ kind: "paid"; orderNumber: string } | { kind: "void"; status: string; isLapsedNow?: boolean }> => {
    const checkout = await lockCheckout(tx, payment.checkoutId);
    if (checkout.paidPaymentId === payment.id) return { kind: "paid", orderNumber: checkout.orderNumber! };
    await tx.payment.update({ where: { id: payment.id }, data: { status: "authorized", processorPaymentId } });
    // A confirmation that arrives after the link lapsed (3-D Secure finished late) never pays.
    if (checkout.status === "awaiting_payment" && checkout.expiresAt <= now) {
      await moveCheckouts(tx, { ids: [checkout.id], event: "expire", now });
      return { kind: "void", status: "expired", isLapsedNow: true };
    }
    if (checkout.status !== "awaiting_payment") return { kind: "void", status: checkout.status };
    return { kind: "paid", orderNumber: await placeOrders(tx, checkout, { paymentId: payment.id, now }) };
  });
  const held = { ...payment, processorPaymentId };
  if (decision.kind === "void") {
    if (decision.isLapsedNow) notifyCheckoutClosed(payment.checkoutId);
    await releasePayment(db, provider, held);
    const message = decision.isLapsedNow ? lapsedMessage : `This checkout is ${decision.status.replace("_", " ")}; the hold on your card was released and nothing was charged.`;
    return { outcome: "closed", message };
  }
  notifyCheckoutClosed(payment.checkoutId);
  await capturePayment(db, provider, held);
  return { outcome: "paid", orderNumber: decision.orderNumber };
};
