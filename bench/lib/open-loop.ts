/**
 * Open-loop load for latency: requests leave at evenly spaced times whatever the server does (a
 * closed loop, or autocannon's per-second rate, waits or bursts and so hides queueing). Latency is
 * counted from each request's scheduled start, so a slow server cannot slow the schedule down and
 * flatter itself (no coordinated omission).
 */
import { Agent, request } from "node:http";
import { type Phase, type PhaseResult, summarizePhase } from "./load";

/** Sends `rate` requests a second for `durationSeconds`. */
export const runOpenLoop = async (
  phase: Omit<Phase, "connections"> & { rate: number },
): Promise<PhaseResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const base = new URL(phase.baseUrl);
  const total = Math.max(1, Math.round(phase.rate * phase.durationSeconds));
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = started + (i * 1000) / phase.rate;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const next = phase.next();
    pending.push(
      new Promise<void>((resolve) => {
        const outgoing = request(
          {
            agent,
            host: base.hostname,
            port: base.port,
            path: next.path,
            headers: next.headers,
            method: phase.method ?? "GET",
          },
          (response) => {
            response.resume();
            response.on("end", () => {
              latencies.push(performance.now() - scheduled);
              statuses[response.statusCode ?? 0] = (statuses[response.statusCode ?? 0] ?? 0) + 1;
              if ((response.statusCode ?? 0) >= 300) errors++;
              resolve();
            });
          },
        );
        outgoing.setTimeout(30_000, () => outgoing.destroy(new Error("timeout")));
        outgoing.on("error", () => {
          errors++;
          resolve();
        });
        outgoing.end(next.body);
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  return summarizePhase(latencies, seconds, errors, statuses);
};
