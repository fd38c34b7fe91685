/**
 * One load phase with autocannon's programmatic API. Latencies come from the `response` event into
 * an exact sorted array (autocannon's own summary has no p95). Closed loop (`connections` in flight)
 * for throughput; `rate` caps requests per second for latency at a set load.
 */
import autocannon from "autocannon";

export type Phase = {
  baseUrl: string;
  connections: number;
  durationSeconds: number;
  /** Requests per second across all connections (omit for as fast as possible). */
  rate?: number;
  method?: "GET" | "POST";
  /** The request to send next: path, headers and body (called once per request). */
  next: () => { path: string; headers?: Record<string, string>; body?: string };
};

export type PhaseResult = {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  statuses: Record<string, number>;
};

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const round = (value: number) => Math.round(value * 100) / 100;

/** One phase's figures from its latencies (ms): request rate, percentiles, errors and statuses. */
export const summarizePhase = (
  latencies: number[],
  seconds: number,
  errors: number,
  statuses: Record<string, number>,
): PhaseResult => {
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    requestsPerSecond: round(latencies.length / seconds),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    errors,
    statuses,
  };
};

/** Runs the phase and summarises it; non-2xx answers, timeouts and socket errors count as errors. */
export const runPhase = async (phase: Phase): Promise<PhaseResult> => {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const started = Date.now();
  const options: autocannon.Options = {
    url: phase.baseUrl,
    connections: phase.connections,
    duration: phase.durationSeconds,
    overallRate: phase.rate,
    timeout: 30,
    requests: [
      {
        method: phase.method ?? "GET",
        setupRequest: (request) => {
          const next = phase.next();
          return {
            ...request,
            path: next.path,
            headers: { ...request.headers, ...next.headers },
            body: next.body,
          };
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const seconds = (Date.now() - started) / 1000;
  const failedStatuses = Object.entries(statuses)
    .filter(([status]) => !status.startsWith("2"))
    .reduce((sum, [, count]) => sum + count, 0);
  return summarizePhase(
    latencies,
    seconds,
    failedStatuses + result.errors + result.timeouts,
    statuses,
  );
};
