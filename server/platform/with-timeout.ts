/**
 * Bounds a promise: rejects with `message` after `ms` unless `work` settled first. A late answer (or
 * failure) after that is dropped, never an unhandled rejection. Used where a dependency must not hold
 * a caller up: Redis under the rate limits, the readiness probe's checks.
 */
export const withTimeout = <T>(work: Promise<T>, ms: number, message = "timed out") => {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
};
