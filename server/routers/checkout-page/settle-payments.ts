/**
 * The payments safety net, run by the sweep: an attempt left `authorizing` by a crash is closed as
 * declined (manual capture means its hold, if any, lapses uncharged), and a hold left `authorized`
 * is captured only when it is the attempt its checkout recorded as paying (paid_payment_id, set with
 * the orders) and released otherwise. Every call reuses its key, so a repeat never charges twice.
 */
import type { Db } from "../../db";
import { paymentProvider } from "../../payments";
import { attemptTimeoutMs } from "./payment-attempt";
import { capturePayment, voidPayment } from "./finalize-payment";

export const settlePayments = async (options: { db: Db; now: Date; limit?: number }) => {
  const { db, now } = options;
  const stale = new Date(now.getTime() - attemptTimeoutMs);
  const lost = await db.payment.updateMany({ where: { status: "authorizing", updatedAt: { lt: stale } }, data: { status: "declined", declineCode: "processor_timeout" } });
  const held = await db.payment.findMany({
    where: { status: "authorized", updatedAt: { lt: stale }, processorPaymentId: { not: null } },
    select: { id: true, checkoutId: true, attempt: true, processorPaymentId: true, checkout: { select: { paidPaymentId: true } } },
    take: options.limit ?? 20,
  });
  const provider = paymentProvider(db);
  for (const payment of held) {
    const attempt = { id: payment.id, checkoutId: payment.checkoutId, attempt: payment.attempt, processorPaymentId: payment.processorPaymentId! };
    // Only the attempt recorded with the orders is captured; any other hold is released.
    const isThePayingAttempt = payment.checkout.paidPaymentId === payment.id;
    await (isThePayingAttempt ? capturePayment(db, provider, attempt) : voidPayment(db, provider, attempt));
  }
  return { timedOut: lost.count, settled: held.length };
};
