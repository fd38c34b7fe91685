/**
 * After the processor holds the money: under the checkout's lock, place the orders if it is still
 * awaiting payment and record this attempt as the one that paid, then capture; if it closed
 * meanwhile (expired, cancelled, or paid by another attempt), release the hold instead. Only the
 * recorded attempt is ever captured. Safe to repeat: the paying attempt is recognised by the
 * checkout's paid_payment_id, and the processor calls reuse their keys. Only an attempt still
 * waiting for the processor is finalised (guarded move to authorized): one settlement already
 * decided is released and never pays. A capture that does not answer is retried by
 * server/checkout/settle-payments.ts; one the processor refuses (the hold is gone) marks the
 * checkout for the operator and emails the shopper (checkout-capture-failed.ts).
 */
import { type Db, inTransaction } from "../../platform/db";
import { notifyCheckoutClosed } from "../../platform/jobs/events";
import { markCheckoutCaptureFailed } from "../checkout-capture-failed";
import { capturePayment, isCaptureFailed, releaseOrRetryLater } from "../../payments";
import type { PaymentProvider } from "../../payments";
import { moveCheckouts } from "../checkout-transitions";
import { moveAttempt } from "../store/borrowed";
import { lockCheckout } from "./payment-attempt";
import type { ClosedReason, PayOutcome } from "./page.schema";
import { placeOrders } from "./place-orders";

type Attempt = { id: string; checkoutId: string; attempt: number };

/** What became of the hold, as the person is told: released now, or (the processor failed the release) by the sweep shortly. */
const holdWords = (isReleased: boolean) =>
  isReleased
    ? "the hold on your card was released"
    : "the hold on your card will be released within minutes";
const lapsedMessage = (isReleased: boolean) =>
  `This checkout link expired before the payment was confirmed: ${holdWords(isReleased)} and nothing was charged. Ask the app that sent you here for a new checkout link.`;

const closedMessage = (status: string, isReleased: boolean) =>
  `This checkout is ${status.replace("_", " ")}; ${holdWords(isReleased)} and nothing was charged.`;
const closedReason = (status: string): ClosedReason =>
  status === "cancelled" || status === "paid" ? status : "expired";
const settledMessage = (isReleased: boolean) =>
  `This payment attempt was already closed (a newer attempt replaced it, or your bank answered too late): ${holdWords(isReleased)} and nothing was charged. You can pay again.`;
const captureFailedMessage = (orderNumber: string) =>
  `Your bank released the hold on your card before the payment for order ${orderNumber} could be collected: nothing was charged and the order is on hold. We emailed you about it.`;

/** Places the orders and captures, or releases the hold when the checkout closed or lapsed meanwhile. */
export const finalizePayment = async (
  db: Db,
  provider: PaymentProvider,
  options: { payment: Attempt; processorPaymentId: string; now: Date },
): Promise<PayOutcome> => {
  const { payment, processorPaymentId, now } = options;
  const decision = await inTransaction(
    db,
    async (
      tx,
    ): Promise<
      | { kind: "paid"; orderNumber: string }
      | { kind: "void"; status: string; isLapsedNow?: boolean }
      | { kind: "settled"; status: string }
    > => {
      const checkout = await lockCheckout(tx, payment.checkoutId);
      if (checkout.paidPaymentId === payment.id)
        return { kind: "paid", orderNumber: checkout.orderNumber! };
      // Guarded: only an attempt still waiting for the processor becomes authorized here. One that
      // settlement already decided (released, declined, or being released) never places orders (H1).
      const isClaimed = await moveAttempt(tx, {
        id: payment.id,
        from: ["authorizing", "requires_action"],
        to: "authorized",
        processorPaymentId,
      });
      if (!isClaimed) return { kind: "settled", status: checkout.status };
      // A confirmation that arrives after the link lapsed (3-D Secure finished late) never pays.
      if (checkout.status === "awaiting_payment" && checkout.expiresAt <= now) {
        await moveCheckouts(tx, { ids: [checkout.id], event: "expire", now });
        return { kind: "void", status: "expired", isLapsedNow: true };
      }
      if (checkout.status !== "awaiting_payment") return { kind: "void", status: checkout.status };
      return {
        kind: "paid",
        orderNumber: await placeOrders(tx, checkout, { paymentId: payment.id, now }),
      };
    },
  );
  const held = { ...payment, processorPaymentId };
  if (decision.kind === "settled") {
    // The hold the answer brought is released (same key as settlement's, so never twice).
    const isReleased = await releaseOrRetryLater(db, provider, held, now);
    return decision.status === "awaiting_payment"
      ? { outcome: "declined", reason: "settled", message: settledMessage(isReleased) }
      : {
          outcome: "closed",
          reason: closedReason(decision.status),
          message: closedMessage(decision.status, isReleased),
        };
  }
  if (decision.kind === "void") {
    if (decision.isLapsedNow) notifyCheckoutClosed(payment.checkoutId);
    const isReleased = await releaseOrRetryLater(db, provider, held, now);
    return decision.isLapsedNow
      ? { outcome: "closed", reason: "lapsed", message: lapsedMessage(isReleased) }
      : {
          outcome: "closed",
          reason: closedReason(decision.status),
          message: closedMessage(decision.status, isReleased),
        };
  }
  notifyCheckoutClosed(payment.checkoutId);
  // A capture that did not answer is retried by settlement; one the processor refused leaves the orders unpaid for: marked and told.
  if (!isCaptureFailed(await capturePayment(db, provider, held, now)))
    return { outcome: "paid", orderNumber: decision.orderNumber };
  await markCheckoutCaptureFailed(db, {
    checkoutId: payment.checkoutId,
    paymentId: payment.id,
    now,
  });
  return {
    outcome: "declined",
    reason: "capture_failed",
    orderNumber: decision.orderNumber,
    message: captureFailedMessage(decision.orderNumber),
  };
};
