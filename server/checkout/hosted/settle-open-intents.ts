/**
 * The safety net for attempts left awaiting the person (the Payment Element's intents, the
 * sandbox's authentication step), run by the sweep after settlement: the person may have
 * confirmed at Stripe while neither their browser came back nor Stripe's webhook arrived. Each
 * attempt older than a whole processor call is asked of the processor through
 * completeCheckoutIntent (the one way an intent completes: orders placed once, or the hold
 * released); one still awaiting the person is left alone while its checkout is open and released
 * (the intent cancelled, so it can never be confirmed) once the checkout closed. Oldest first,
 * with settlement's backoff, so intents nobody will ever confirm do not starve newer ones.
 */
import type { Db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import { attemptTimeoutMs, releasePayment } from "../../payments";
import type { PaymentProvider } from "../../payments";
import { eachRow } from "../settle-payments";
import { findOpenIntents, moveAttempt } from "../store/borrowed";
import { findCheckoutStatus } from "../store/checkouts";
import { completeCheckoutIntent } from "./complete-intent";

type OpenAttempt = {
  id: string;
  checkoutId: string | null;
  attempt: number;
  processorPaymentId: string | null;
};

const settleOne = async (
  db: Db,
  provider: PaymentProvider,
  payment: OpenAttempt,
  now: Date,
): Promise<"done" | "ask_later"> => {
  const processorPaymentId = payment.processorPaymentId!;
  if (await completeCheckoutIntent(db, provider, { processorPaymentId, now })) return "done";
  if ((await findCheckoutStatus(db, payment.checkoutId!)) === "awaiting_payment")
    return "ask_later";
  // The checkout closed with this attempt unconfirmed: cancel the intent, then void the row (guarded).
  await releasePayment(db, provider, { ...payment, processorPaymentId });
  await moveAttempt(db, { id: payment.id, from: ["requires_action"], to: "voided" });
  return "done";
};

export const settleOpenIntents = async (options: {
  db: Db;
  now: Date;
  limit?: number;
  provider?: PaymentProvider;
}) => {
  const { db, now } = options;
  const provider = options.provider ?? paymentProvider();
  const open = await findOpenIntents(db, {
    stale: new Date(now.getTime() - attemptTimeoutMs),
    now,
    take: options.limit ?? 20,
  });
  return {
    settled: await eachRow(db, open, now, (payment) => settleOne(db, provider, payment, now)),
  };
};
