/**
 * The service's Prometheus metrics (prom-client; names fixed by the metrics contract, docs/adr/0112).
 * Code anywhere counts through `count` and `observe`; on the main thread they move this registry at
 * once. On the sweep thread (server/edges/jobs/sweep-worker.ts) the same calls are buffered and sent
 * to the main thread as summed deltas once a second (`forwardMetrics`), where `applyMetricDeltas`
 * adds them here: the one registry /metrics serves holds both threads' counts, and a restarted sweep
 * thread loses at most its last second instead of resetting a counter. Labels take a few known
 * values only (operation ids, outcomes, job names): never an id, a path or a message.
 */
import client from "prom-client";
import type { poolUse } from "../db";

/** Seconds buckets for requests (a lean API call is a few ms; a purchase waits on the bank). */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for lags (a sweep task runs every 0.2 to 15 s; a lag past minutes is an incident). */
const lagBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
/** Seconds buckets for job runs (an idle run is a query of a few ms; a sale's evaluations run for minutes). */
const jobBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The registry and its metrics, made once per process: the launcher (tsx) and the Next.js bundle
 * load this module separately in one process (as server/catalogue/search/index.ts notes), and a
 * purchase cancelled from a page must count where /metrics reads.
 */
const createMetrics = () => {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new client.Counter({ name, help, labelNames, registers: [registry] });
  const histogram = (name: string, help: string, buckets: number[], labelNames: string[] = []) =>
    new client.Histogram({ name, help, labelNames, buckets, registers: [registry] });
  return { registry, counters: countersOf(counter), histograms: histogramsOf(histogram) };
};

type MakeCounter = (name: string, help: string, labelNames?: string[]) => client.Counter;
type MakeHistogram = (
  name: string,
  help: string,
  buckets: number[],
  labelNames?: string[],
) => client.Histogram;

const countersOf = (counter: MakeCounter) => ({
  shopping_http_requests_total: counter(
    "shopping_http_requests_total",
    "HTTP requests answered, by operation (an /api/v1 operation id, or page, static, mcp, oauth, trpc, stripe_webhook, inngest, probe, metrics, other), method and status.",
    ["operation", "method", "status"],
  ),
  shopping_rate_limit_refusals_total: counter(
    "shopping_rate_limit_refusals_total",
    "Requests refused 429 rate_limited, by limit (partner, person, mcp, and the auth and payment limits by name).",
    ["limit"],
  ),
  shopping_rate_limit_memory_decisions_total: counter(
    "shopping_rate_limit_memory_decisions_total",
    "Rate-limit windows decided by this process's memory because Redis was slow, failing or paused (fail open: not shared between instances), by limit and window (minute, hour...). Always 0 without REDIS_URL, where memory is the store.",
    ["limit", "window"],
  ),
  shopping_stripe_paced_total: counter(
    "shopping_stripe_paced_total",
    "Requests to Stripe held back to stay under Stripe's rate limits (server/payments/stripe-pace.ts), by reason: window (a one-second window of the account or the endpoint was spent: the request waited for the next) or rate_limited (Stripe answered 429 all the same: sent again after a backoff).",
    ["reason"],
  ),
  shopping_purchases_total: counter(
    "shopping_purchases_total",
    "Assistant purchases reaching an outcome: processing (written), held, declined (the person must pay through a link), refused, captured, capture_failed, cancelled, released (the hold lapsed), refunded.",
    ["outcome"],
  ),
  shopping_refunds_total: counter(
    "shopping_refunds_total",
    "Refunds reaching an outcome: succeeded, processing (made, waiting at the bank), failed (refused by the processor or failed at the bank before it succeeded), failed_at_bank (sent back after it succeeded: the person is owed it by other means; alert on any).",
    ["outcome"],
  ),
  shopping_watch_evaluations_total: counter(
    "shopping_watch_evaluations_total",
    "Price watch evaluations after a price change, by outcome (bought, not_bought, not_qualified, ended, claimed_elsewhere, failed).",
    ["outcome"],
  ),
  shopping_search_watch_matches_total: counter(
    "shopping_search_watch_matches_total",
    "Items newly matching a live search watch (one a watch and item), by mode (notify, buy) and reason (new_listing, price_change, back_in_stock).",
    ["mode", "reason"],
  ),
  shopping_search_watch_emails_total: counter(
    "shopping_search_watch_emails_total",
    "Search-watch emails queued: at a watch's first match of its hour (at_match) or as the sweep's digest (digest).",
    ["when"],
  ),
  shopping_webhook_deliveries_total: counter(
    "shopping_webhook_deliveries_total",
    "Webhook delivery attempts by result (delivered, failed: retried later, dropped: the person disconnected the app).",
    ["result"],
  ),
  shopping_search_index_rebuilds_total: counter(
    "shopping_search_index_rebuilds_total",
    "Full builds of this instance's in-memory catalogue index (the first one at start included).",
  ),
  shopping_job_runs_total: counter(
    "shopping_job_runs_total",
    "Runs of the due-work sweep's tasks, by job and result (ok, failed).",
    ["job", "result"],
  ),
});

const histogramsOf = (histogram: MakeHistogram) => ({
  shopping_http_request_duration_seconds: histogram(
    "shopping_http_request_duration_seconds",
    "Time from the request's arrival to the end of its response, by operation.",
    requestBuckets,
    ["operation"],
  ),
  shopping_watch_evaluation_lag_seconds: histogram(
    "shopping_watch_evaluation_lag_seconds",
    "Time from a price change being recorded to its item's watches having been evaluated.",
    lagBuckets,
  ),
  shopping_webhook_delivery_lag_seconds: histogram(
    "shopping_webhook_delivery_lag_seconds",
    "Time from a webhook event being created to its delivery being accepted by the receiver.",
    lagBuckets,
  ),
  shopping_job_run_duration_seconds: histogram(
    "shopping_job_run_duration_seconds",
    "Duration of one run of a due-work sweep task, by job.",
    jobBuckets,
    ["job"],
  ),
});

const shared = globalThis as unknown as { shoppingMetrics?: ReturnType<typeof createMetrics> };
const { registry, counters, histograms } = (shared.shoppingMetrics ??= createMetrics());
/** The one registry /metrics serves (server/edges/http/metrics-endpoint.ts adds its scrape-time gauges to it). */
export { registry };

export type CounterName = keyof ReturnType<typeof countersOf>;
export type HistogramName = keyof ReturnType<typeof histogramsOf>;
type Labels = Record<string, string>;

/** A buffered change: a counter increment, or the observations of a histogram. */
export type MetricDelta =
  | { kind: "count"; name: CounterName; labels: Labels; value: number }
  | { kind: "observe"; name: HistogramName; labels: Labels; values: number[] };

/** Set on the sweep thread: where `count` and `observe` buffer instead of moving this registry. */
let buffer: Map<string, MetricDelta> | undefined;

const keyOf = (name: string, labels: Labels) => `${name}\u0000${JSON.stringify(labels)}`;

/** Adds `value` (1 by default) to a counter. */
export const count = (name: CounterName, labels: Labels = {}, value = 1) => {
  if (!buffer) return void counters[name].inc(labels, value);
  const key = keyOf(name, labels);
  const pending = buffer.get(key);
  if (pending?.kind === "count") pending.value += value;
  else buffer.set(key, { kind: "count", name, labels, value });
};

/** Records one observation (seconds) in a histogram. */
export const observe = (name: HistogramName, value: number, labels: Labels = {}) => {
  if (!buffer) return void histograms[name].observe(labels, value);
  const key = keyOf(name, labels);
  const pending = buffer.get(key);
  if (pending?.kind === "observe") pending.values.push(value);
  else buffer.set(key, { kind: "observe", name, labels, values: [value] });
};

/** Seconds since `from` (a Date or epoch ms), never negative (clocks of two machines differ). */
export const secondsSince = (from: Date | number) =>
  Math.max(0, (Date.now() - (typeof from === "number" ? from : from.getTime())) / 1000);

/** Main thread: adds the deltas another thread sent (server/edges/jobs/sweep-thread.ts). */
export const applyMetricDeltas = (deltas: readonly MetricDelta[]) => {
  for (const delta of deltas) {
    if (delta.kind === "count" && delta.name in counters)
      counters[delta.name].inc(delta.labels, delta.value);
    else if (delta.kind === "observe" && delta.name in histograms)
      for (const value of delta.values) histograms[delta.name].observe(delta.labels, value);
  }
};

/** The message a thread sends its deltas in. */
export const isMetricDeltasMessage = (
  message: unknown,
): message is { metricDeltas: MetricDelta[] } =>
  typeof message === "object" &&
  message !== null &&
  Array.isArray((message as { metricDeltas?: unknown }).metricDeltas);

/**
 * Sweep thread: from now on `count` and `observe` are buffered and posted with `send` every
 * `intervalMs`; returns `flush`, which posts what is pending now (before the thread exits).
 */
export const forwardMetrics = (
  send: (message: { metricDeltas: MetricDelta[] }) => void,
  intervalMs = 1000,
) => {
  buffer = new Map();
  const flush = () => {
    if (!buffer?.size) return;
    const metricDeltas = [...buffer.values()];
    buffer = new Map();
    send({ metricDeltas });
  };
  setInterval(flush, intervalMs).unref();
  return flush;
};

type PoolUse = { pool: string; total: number; idle: number; waiting: number };
let sweepPools: PoolUse[] = [];
/** Main thread: the sweep thread's pools (`poolUse()` there) as it last reported them, named sweep_<pool>. */
export const noteSweepPoolUse = (pools: ReturnType<typeof poolUse>) => {
  sweepPools = pools.map((use) => ({ ...use, pool: `sweep_${use.pool}` }));
};
/** What /metrics shows of the sweep thread's pools. */
export const sweepPoolUse = (): readonly PoolUse[] => sweepPools;
