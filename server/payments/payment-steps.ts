/**
 * The steps of one payment, whoever owns it (a checkout attempt or an assistant purchase): open the
 * row, authorize, confirm the authentication step, capture, release. Each step calls the processor
 * with the key derived from the owner and records the answer on the payment row; deciding *whether*
 * to capture or release belongs to the owner (the checkout's paying attempt, the purchase's state).
 */
import type { Db } from "../platform/db";
import { isCaptureDue, recordCaptureUnanswered } from "./capture-retries";
import { slowestCallMs, stripeClientSettings } from "./processor-budget";
import {
  readNextCaptureAt,
  recordAuthorizeNeedsAction,
  recordCaptured,
  recordDeclinedAuthorize,
  recordFailedAuthentication,
  recordHoldReleasedAtCapture,
  recordReleaseOutcome,
  recordReleaseDue,
  clearReleaseDue,
  findReleasesDue,
} from "./store/payments";
import {
  type PaymentMethod,
  type PaymentProvider,
  type ProcessorPayment,
  isUnknownOutcome,
  ownerOf,
  processorKey,
} from "./provider";
import { logger } from "../platform/observability/log";

/**
 * An attempt with the processor longer than this is reconciled by the sweep (settle-payments.ts):
 * the slowest processor call (processor-budget.ts, 85 s with Stripe's settings) and 30 s of margin
 * (115 s), so a call still running is never taken for lost and its hold released under it (H1).
 * Should a call outlive even that, the guarded writes still keep it from paying without money.
 */
export const attemptTimeoutMs = slowestCallMs(stripeClientSettings) + 30_000;

type PaymentRef = {
  id: string;
  checkoutId: string | null;
  purchaseId?: string | null;
  attempt: number;
};
export type HeldPayment = PaymentRef & { processorPaymentId: string };

/** Opens a payment in `authorizing` (raw SQL: POST /purchases runs it in its `pg` transaction). */
export { openPayment } from "./store/payments";

export type AuthorizeResult =
  | { kind: "authorized"; processorPaymentId: string }
  | { kind: "requires_action"; processorPaymentId: string }
  | { kind: "declined"; declineCode: string | null }
  /** The processor did not answer: the payment stays `authorizing` and settlement reconciles it with `retrieve`. */
  | { kind: "unknown" };

/**
 * Asks for the hold and records a decline or an authentication step. An authorized hold is left for
 * the owner to record (under its own lock, with what the hold pays for); an unknown outcome is left
 * `authorizing`, never retried with a second authorize.
 */
export const authorizePayment = async (
  db: Db,
  provider: PaymentProvider,
  options: {
    payment: PaymentRef & { amountCents: number };
    method: PaymentMethod;
    description: string;
  },
): Promise<AuthorizeResult> => {
  const { payment } = options;
  let result;
  try {
    result = await provider.authorize({
      idempotencyKey: processorKey(ownerOf(payment), "authorize"),
      amountCents: payment.amountCents,
      method: options.method,
      description: options.description,
    });
  } catch (error) {
    if (isUnknownOutcome(error)) return { kind: "unknown" };
    throw error;
  }
  // Guarded: only an attempt still waiting for this answer records it (settlement may have decided it already).
  if (result.status === "declined") {
    await recordDeclinedAuthorize(db, {
      id: payment.id,
      declineCode: result.declineCode,
      processorPaymentId: result.id,
    });
    return { kind: "declined", declineCode: result.declineCode };
  }
  if (result.status === "requires_action") {
    await recordAuthorizeNeedsAction(db, { id: payment.id, processorPaymentId: result.id });
    return { kind: "requires_action", processorPaymentId: result.id };
  }
  return { kind: "authorized", processorPaymentId: result.id };
};

/**
 * What the processor knows of a payment whose authorize never answered: asked by the processor id
 * when we have it, else by the authorize key (never a second authorize). `absent` only once the
 * processor's lookup lag has passed since the payment was opened (before that, not found may be
 * the lag); `ask_later` when the processor cannot say now.
 */
export const lookUpAuthorize = async (
  provider: PaymentProvider,
  payment: PaymentRef & { processorPaymentId: string | null; createdAt: Date },
  now: Date,
): Promise<
  { kind: "found"; payment: ProcessorPayment } | { kind: "absent" } | { kind: "ask_later" }
> => {
  let found: ProcessorPayment | null;
  try {
    found = await provider.retrieve(
      payment.processorPaymentId
        ? { paymentId: payment.processorPaymentId }
        : { authorizeKey: processorKey(ownerOf(payment), "authorize") },
    );
  } catch (error) {
    logger.warn(
      { payment_id: payment.id, error: (error as Error).message },
      "payments: the processor cannot say yet, asking again later",
    );
    return { kind: "ask_later" };
  }
  if (found) return { kind: "found", payment: found };
  return payment.createdAt.getTime() > now.getTime() - provider.lookupLagMs
    ? { kind: "ask_later" }
    : { kind: "absent" };
};

/** Records the person's authentication step; a failed one declines the payment. */
export const confirmPayment = async (
  db: Db,
  provider: PaymentProvider,
  options: { payment: HeldPayment; authenticated: boolean },
): Promise<AuthorizeResult> => {
  const { payment } = options;
  const result = await provider.confirm({
    idempotencyKey: processorKey(ownerOf(payment), "confirm"),
    paymentId: payment.processorPaymentId,
    authenticated: options.authenticated,
  });
  if (result.status === "authorized") return { kind: "authorized", processorPaymentId: result.id };
  await recordFailedAuthentication(db, { id: payment.id, declineCode: result.declineCode });
  return { kind: "declined", declineCode: result.declineCode };
};

/**
 * What a capture came to: `captured`; `hold_released` when the processor reports the hold gone
 * (it lapsed, or was released) so nothing can be charged; `retries_exhausted` when the processor
 * did not answer the last try allowed (capture-retries.ts): both leave the payment
 * `capture_failed`, for the owner to mark and tell; `later` when the processor did not answer or
 * the next try is not due yet (the payment stays `authorized`, the sweep tries again, same key).
 */
export type CaptureOutcome = "captured" | "hold_released" | "retries_exhausted" | "later";

/** The outcomes after which no capture is tried again and the owner was settled with no money. */
export const isCaptureFailed = (outcome: CaptureOutcome) =>
  outcome === "hold_released" || outcome === "retries_exhausted";

/**
 * Charges a held payment and records the processor's answer on the row, guarded by `authorized`:
 * a capture that finds the payment already captured is `captured`; one that finds the hold gone
 * is `capture_failed` (never `voided`: the owner was settled and expected this money). Tries are
 * bounded and spaced (capture-retries.ts): before its next try is due, nothing is asked.
 */
export const capturePayment = async (
  db: Db,
  provider: PaymentProvider,
  payment: HeldPayment,
  now: Date,
): Promise<CaptureOutcome> => {
  const row = await readNextCaptureAt(db, payment.id);
  if (row && !isCaptureDue(row.nextCaptureAt, now)) return "later";
  let result;
  try {
    result = await provider.capture({
      idempotencyKey: processorKey(ownerOf(payment), "capture"),
      paymentId: payment.processorPaymentId,
    });
  } catch (error) {
    logger.warn(
      { payment_id: payment.id, error: (error as Error).message },
      "payments: capture did not answer",
    );
    // What the processor holds decides, not the failed call: a capture that went through (Stripe
    // replays a saved 500 under the same key for a day) or a hold already gone. Only a hold still
    // there, or a processor that cannot say, counts as an unanswered try.
    result = await provider.retrieve({ paymentId: payment.processorPaymentId }).catch(() => null);
    if (!result || (result.status !== "captured" && result.status !== "voided"))
      return recordCaptureUnanswered(db, payment.id, now);
  }
  if (result.status === "captured") {
    await recordCaptured(db, payment.id);
    return "captured";
  }
  if (result.status === "voided" || result.status === "declined") {
    logger.error(
      { payment_id: payment.id, processor_status: result.status },
      "payments: asked for captured, the processor reports otherwise",
    );
    await recordHoldReleasedAtCapture(db, payment.id);
    return "hold_released";
  }
  logger.warn(
    { payment_id: payment.id, processor_status: result.status },
    "payments: asked for captured, the processor still reports otherwise",
  );
  return recordCaptureUnanswered(db, payment.id, now);
};

/** Releases a hold that nothing needs; nothing is charged (unless the processor says it was already captured, which is recorded). */
export const releasePayment = async (db: Db, provider: PaymentProvider, payment: HeldPayment) => {
  const result = await provider.release({
    idempotencyKey: processorKey(ownerOf(payment), "release"),
    paymentId: payment.processorPaymentId,
  });
  if (result.status !== "voided")
    logger.error(
      { payment_id: payment.id, processor_status: result.status },
      "payments: asked for voided, the processor reports otherwise",
    );
  if (result.status === "captured" || result.status === "voided") {
    await recordReleaseOutcome(db, { id: payment.id, status: result.status });
  }
  return result.status;
};

/** How long after a failed release it is tried again (each failure pushes it this much later). */
const releaseRetryMs = 60_000;

/**
 * Releases a hold that no attempt needs any more (the attempt was voided or declined here while the
 * processor held money for it). When the processor fails the release, it is not left to luck: the
 * release is due again in a minute and the sweep's `releaseDuePayments` tries it until it is made.
 * Returns whether the hold was released now.
 */
export const releaseOrRetryLater = async (
  db: Db,
  provider: PaymentProvider,
  payment: HeldPayment,
  now: Date,
) => {
  try {
    await releasePayment(db, provider, payment);
    return true;
  } catch (error) {
    await retryReleaseLater(db, payment.id, error, now);
    return false;
  }
};

/** A release the processor failed: due again in a minute, for `releaseDuePayments`. */
export const retryReleaseLater = async (db: Db, paymentId: string, error: unknown, now: Date) => {
  logger.warn(
    { payment_id: paymentId, err: error },
    "payments: the release failed; the sweep tries it again",
  );
  await recordReleaseDue(db, paymentId, new Date(now.getTime() + releaseRetryMs));
};

/** The sweep's pass over releases that failed before (`releaseOrRetryLater`): each tried again, a failure a minute later. */
export const releaseDuePayments = async (
  db: Db,
  provider: PaymentProvider,
  options: { now: Date; take: number },
) => {
  let released = 0;
  for (const payment of await findReleasesDue(db, options)) {
    if (!(await releaseOrRetryLater(db, provider, payment, options.now))) continue;
    await clearReleaseDue(db, payment.id);
    released++;
  }
  return released;
};
