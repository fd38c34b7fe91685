/**
 * The one bound on capture retries (review L5), for checkout payments (settlement) and assistant
 * purchases (their charge step and the sweep) alike: a capture the processor did not answer is
 * tried again only after a delay that doubles (1, 2, 4 ... minutes, at most an hour), at most
 * `maxAttempts` times in all (about two and a half hours, well inside a card hold's days). After the last, the
 * payment is `capture_failed` (decline_code capture_retries_exhausted), an operator alert is
 * logged, it appears in `npm run ops -- payment:capture-failed`, and nothing calls the processor
 * for it again.
 */
import type { Db } from "../platform/db";
import {
  countUnansweredCapture,
  recordCaptureRetriesExhausted,
  scheduleNextCapture,
} from "./store/payments";
import { logger } from "../platform/observability/log";

const captureRetryPolicy = {
  maxAttempts: 8,
  firstDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
} as const;

/** The wait after the `attempts`-th unanswered capture. */
const captureDelayMs = (attempts: number) =>
  Math.min(
    captureRetryPolicy.firstDelayMs * 2 ** Math.max(0, attempts - 1),
    captureRetryPolicy.maxDelayMs,
  );

/** Whether a capture may be tried now, given the row's next_capture_at. */
export const isCaptureDue = (nextCaptureAt: Date | null, now: Date) =>
  !nextCaptureAt || nextCaptureAt <= now;

/**
 * Counts one capture the processor did not answer and schedules the next; after the last allowed,
 * moves the payment (still `authorized`) to `capture_failed` and alerts the operator.
 */
export const recordCaptureUnanswered = async (
  db: Db,
  paymentId: string,
  now: Date,
): Promise<"later" | "retries_exhausted"> => {
  const attempts = await countUnansweredCapture(db, paymentId, now);
  if (attempts === undefined) return "later"; // settled meanwhile by someone else
  if (attempts < captureRetryPolicy.maxAttempts) {
    await scheduleNextCapture(db, paymentId, new Date(now.getTime() + captureDelayMs(attempts)));
    return "later";
  }
  const count = await recordCaptureRetriesExhausted(db, paymentId);
  if (count)
    logger.error(
      {
        alert: "capture_retries_exhausted",
        payment_id: paymentId,
        attempts,
        see: "npm run ops -- payment:capture-failed",
      },
      "payments: captures unanswered, no more retries",
    );
  return count ? "retries_exhausted" : "later";
};
