/**
 * The payments safety net, run by the sweep: an attempt left `authorizing` by a crash is closed as
 * declined (manual capture means its hold, if any, lapses uncharged), and a hold left `authorized`
 * is captured when its checkout is paid or released when it is not. Every call reuses its key.
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
    select: { id: true, checkoutId: true, attempt: true, processorPaymentId: true, checkout: { select: { status: true, payments: { where: { status: { in: ["authorized", "captured"] } }, select: { id: true }, orderBy: { attempt: "asc" }, take: 1 } } } },
    take: options.limit ?? 20,
  });
  const provider = paymentProvider(db);
  for (const payment of held) {
    const attempt = { id: payment.id, checkoutId: payment.checkoutId, attempt: payment.attempt, processorPaymentId: payment.processorPaymentId! };
    // Only the attempt that paid the checkout is captured; any other hold is released.
    const isTheOnePaid = payment.checkout.status === "paid" && payment.checkout.payments[0]?.id === payment.id;
    await (isTheOnePaid ? capturePayment(db, provider, attempt) : voidPayment(db, provider, attempt));
  }
  return { timedOut: lost.count, settled: held.length };
};
