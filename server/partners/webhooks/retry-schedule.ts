/**
 * When a failed webhook delivery is tried again, and when an endpoint gives up. Pure.
 *
 * Backoff after the n-th failed attempt: 5 s × 4^(n-1), at most 12 hours (5 s, 20 s, 80 s, 5 min,
 * 21 min, 85 min, 5.7 h, then every 12 h), so about 11 attempts fit in the 3 days an event is
 * retried. An endpoint whose attempts have all failed for 5 days is disabled.
 */
const retryWindowMs = 3 * 24 * 3_600_000;
const disableAfterFailingMs = 5 * 24 * 3_600_000;
export const attemptTimeoutMs = 10_000;

export const retryDelayMs = (failedAttempts: number) =>
  Math.min(12 * 3_600_000, 5_000 * 4 ** Math.max(0, failedAttempts - 1));

/** The next attempt's time, or null when it would fall outside the event's retry window. */
export const nextAttemptAt = (options: {
  failedAttempts: number;
  now: Date;
  eventCreatedAt: Date;
}): Date | null => {
  const next = new Date(options.now.getTime() + retryDelayMs(options.failedAttempts));
  return next.getTime() - options.eventCreatedAt.getTime() > retryWindowMs ? null : next;
};

/** True when an endpoint failing since `failingSince` has failed long enough to be disabled. */
export const shouldDisable = (failingSince: Date, now: Date) =>
  now.getTime() - failingSince.getTime() >= disableAfterFailingMs;
