/**
 * `npm start` runs the due-work sweep (sweep.ts) on a worker thread of its own, so that background
 * work never queues behind, or in front of, a request on the one JavaScript thread that serves
 * them: rendering an email (about 5 ms of React), delivering webhooks, charging purchases and
 * evaluating price watches after a sale (thousands of quotes and purchases) run beside the requests,
 * on another core when there is one. The thread has its own database pools and shares nothing in
 * memory with the server (every task reads and writes through the database, each step idempotent),
 * so a task behaves exactly as on the main thread; tests call `startSweep` in-process.
 * A thread that dies is started again after a second (its tasks resume from the database).
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { typeScriptThreadEntry } from "../../platform/source-maps";
import { isPrettyOutput, logger } from "../../platform/observability/log";
import {
  applyMetricDeltas,
  isMetricDeltasMessage,
  noteSweepPoolUse,
} from "../../platform/observability/metrics";

const restartDelayMs = 1_000;
/**
 * The thread's new-object space. V8's default grows it to about 48 MB under a sale's evaluations,
 * memory the thread keeps; 8 MB measured the same sale time for about 35 MB less RSS (docs/adr/0093-memory-of-the-running-service.md).
 */
const youngGenerationMb = 8;
const entry = typeScriptThreadEntry(path.join(__dirname, "sweep-worker.ts"));

const isPoolUseMessage = (
  message: unknown,
): message is { poolUse: Parameters<typeof noteSweepPoolUse>[0] } =>
  typeof message === "object" &&
  message !== null &&
  Array.isArray((message as { poolUse?: unknown }).poolUse);

export const startSweepThread = (log: (line: string) => void) => {
  let isStopping = false;
  let worker: Worker;
  let hasExited = false;
  const spawn = () => {
    if (isStopping) return;
    hasExited = false;
    worker = new Worker(entry, {
      eval: true,
      name: "sweep",
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
      workerData: { prettyLogs: isPrettyOutput },
    });
    worker.on("error", (error) => logger.error({ err: error }, "sweep thread failed"));
    // The thread's metric deltas and pool use, for this thread's /metrics (server/platform/observability/metrics.ts).
    worker.on("message", (message: unknown) => {
      if (isMetricDeltasMessage(message)) applyMetricDeltas(message.metricDeltas);
      else if (isPoolUseMessage(message)) noteSweepPoolUse(message.poolUse);
    });
    worker.on("exit", (code) => {
      hasExited = true;
      if (isStopping) return;
      log(`sweep thread exited with code ${code}; starting it again in ${restartDelayMs} ms`);
      setTimeout(spawn, restartDelayMs).unref();
    });
  };
  spawn();
  return {
    /** Lets the runs in progress finish (they release the leases they have not started on), then ends the thread. */
    stop: () =>
      new Promise<void>((resolve) => {
        isStopping = true;
        // A thread that died and waits to be started again has nothing to finish.
        if (hasExited) return resolve();
        worker.once("exit", () => resolve());
        worker.postMessage("stop");
      }),
  };
};
