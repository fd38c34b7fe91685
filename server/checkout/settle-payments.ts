/**
 * The payments safety net for checkout payments, run by the sweep (assistant purchases settle
 * through their own state machine, server/purchases). Every call reuses its key, so a repeat never charges twice.
 * - An attempt left `authorizing` (a crash, or the processor never answered) is reconciled with
 *   `retrieve`, never a second authorize: a hold found is settled like any other (below); an
 *   authentication step nobody will complete is released; a decline is recorded; a payment the
 *   processor never made is declined; when the processor cannot say, the next run asks again.
 * - A hold left `authorized` is captured only when it is the attempt its checkout recorded as paying
 *   (paid_payment_id, set with the orders) and released otherwise. A capture the processor refuses
 *   (the hold lapsed), or left unanswered too often (capture-retries.ts: bounded, with backoff), is
 *   `capture_failed`: the checkout is marked and the shopper told.
 * - A release the processor failed (of a hold under an attempt voided or declined meanwhile) is
 *   tried again once due, a minute after each failure (`releaseDuePayments`), until it is made.
 * An attempt counts as lost only after `attemptTimeoutMs`, longer than any processor call, so a
 * call still running is never settled under it (H1).
 */
import type { Db } from "../platform/db";
import { paymentProvider } from "../payments";
import type { PaymentProvider } from "../payments";
import { markCheckoutCaptureFailed } from "./checkout-capture-failed";
import {
  askAboutPaymentLater,
  findHeldAttempts,
  findLostAttempts,
  moveAttempt,
} from "./store/borrowed";
import { isPayingAttempt } from "./store/checkouts";
import {
  attemptTimeoutMs,
  capturePayment,
  isCaptureFailed,
  type HeldPayment,
  lookUpAuthorize,
  releaseDuePayments,
  releasePayment,
} from "../payments";
import { logger } from "../platform/observability/log";

/** Captures the checkout's paying attempt (a refused capture marks the checkout and tells the shopper); releases any other hold. */
const settleHold = async (db: Db, provider: PaymentProvider, payment: HeldPayment, now: Date) => {
  const paying = await isPayingAttempt(db, {
    checkoutId: payment.checkoutId!,
    paymentId: payment.id,
  });
  if (!paying) return void (await releasePayment(db, provider, payment));
  if (isCaptureFailed(await capturePayment(db, provider, payment, now)))
    await markCheckoutCaptureFailed(db, {
      checkoutId: payment.checkoutId!,
      paymentId: payment.id,
      now,
    });
};

/** Runs `step` for each row, oldest first; a row whose step cannot finish backs off, and never stops the batch. */
export const eachRow = async <T extends { id: string }>(
  db: Db,
  rows: T[],
  now: Date,
  step: (row: T) => Promise<"done" | "ask_later">,
) => {
  let done = 0;
  for (const row of rows) {
    const result = await step(row).catch((error: unknown) => {
      logger.warn(
        { payment_id: row.id, error: (error as Error).message },
        "payments: settling failed; asked again later",
      );
      return "ask_later" as const;
    });
    // The processor could not say (or a step failed): the row backs off (asked again after 30 s, doubling).
    if (result === "ask_later") await askAboutPaymentLater(db, row.id, now);
    else done++;
  }
  return done;
};

/** Reconciles one attempt whose authorize never answered; `done` when its outcome is recorded (here or by another instance). */
const reconcile = async (
  db: Db,
  provider: PaymentProvider,
  payment: {
    id: string;
    checkoutId: string | null;
    purchaseId: string | null;
    attempt: number;
    processorPaymentId: string | null;
    createdAt: Date;
  },
  now: Date,
): Promise<"done" | "ask_later"> => {
  const lookup = await lookUpAuthorize(provider, payment, now);
  if (lookup.kind === "ask_later") return "ask_later";
  if (lookup.kind === "absent") {
    await moveAttempt(db, {
      id: payment.id,
      from: ["authorizing"],
      to: "declined",
      declineCode: "processor_timeout",
    });
    return "done";
  }
  const found = lookup.payment;
  const isRecorded = await moveAttempt(db, {
    id: payment.id,
    from: ["authorizing"],
    to: found.status,
    processorPaymentId: found.id,
    declineCode: found.declineCode,
  });
  if (!isRecorded) return "done";
  const held = { ...payment, processorPaymentId: found.id };
  if (found.status === "authorized") await settleHold(db, provider, held, now);
  // Nobody is on the page to authenticate an attempt the person was told is still processing.
  if (found.status === "requires_action") await releasePayment(db, provider, held);
  return "done";
};

/**
 * One run of the safety net: a batch of lost attempts, then a batch of holds, each oldest first and
 * skipping rows that are backing off, so rows the processor can never answer about drift out of
 * the batches and newer ones are reached (issue 23, section 3).
 */
export const settlePayments = async (options: {
  db: Db;
  now: Date;
  limit?: number;
  provider?: PaymentProvider;
}) => {
  const { db, now } = options;
  const provider = options.provider ?? paymentProvider();
  const stale = new Date(now.getTime() - attemptTimeoutMs);
  const take = options.limit ?? 20;
  const lost = await findLostAttempts(db, { stale, now, take });
  const reconciled = await eachRow(db, lost, now, (payment) =>
    reconcile(db, provider, payment, now),
  );
  const held = await findHeldAttempts(db, { stale, now, take });
  await eachRow(db, held, now, async (payment) => {
    await settleHold(
      db,
      provider,
      { ...payment, processorPaymentId: payment.processorPaymentId! },
      now,
    );
    return "done";
  });
  const released = await releaseDuePayments(db, provider, { now, take });
  return { reconciled, settled: held.length, released };
};
