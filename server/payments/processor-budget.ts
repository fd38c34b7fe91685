/**
 * How long one processor call may last, from the Stripe client's own settings: each try may wait
 * `paceWaitMs` for its turn under Stripe's rate limits (stripe-pace.ts) and then `timeoutMs`, a
 * failed try is retried `maxNetworkRetries` times with the same Idempotency-Key, and the client
 * sleeps at most `maxRetryDelayMs` between tries (stripe-node's fixed MAX_NETWORK_RETRY_DELAY_SEC, 5 s). Anything that
 * decides an attempt is lost (settlement, the purchase sweeps, a second attempt on the page) must
 * wait longer than this, or it releases a hold the call is still placing (review H1).
 */
export const stripeClientSettings = {
  timeoutMs: 20_000,
  paceWaitMs: 5_000,
  maxNetworkRetries: 2,
  maxRetryDelayMs: 5_000,
} as const;

/** The longest a call made with `settings` can take before it answers or fails. */
export const slowestCallMs = (settings: {
  timeoutMs: number;
  paceWaitMs: number;
  maxNetworkRetries: number;
  maxRetryDelayMs: number;
}) =>
  (settings.paceWaitMs + settings.timeoutMs) * (settings.maxNetworkRetries + 1) +
  settings.maxRetryDelayMs * settings.maxNetworkRetries;
