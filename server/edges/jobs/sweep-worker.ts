/** The sweep thread's entry (sweep-thread.ts): runs every due-work loop until the server says stop. */
import { parentPort } from "node:worker_threads";
// First: tracing patches the modules the tasks load next.
import { threadTracing } from "./thread-tracing";
import { poolUse } from "../../platform/db";
import { forwardMetrics } from "../../platform/observability/metrics";
import { closeConfiguredTransport } from "../../platform/mail/sender";
import { startSweep } from "./sweep";

if (!parentPort) throw new Error("sweep-worker.ts runs on the sweep thread only (sweep-thread.ts)");
const port = parentPort;
// This thread's counts reach the main thread's /metrics as deltas (docs/adr/0112), its pools' use as a snapshot.
const flushMetrics = forwardMetrics((message) => port.postMessage(message));
setInterval(() => port.postMessage({ poolUse: poolUse() }), 1000).unref();
const sweep = startSweep();
// The listener keeps the thread alive (the loops' timers are unref'd); "stop" ends it after the runs in progress.
port.on("message", (message) => {
  if (message !== "stop") return;
  void sweep
    .stop()
    .then(() => {
      // The SMTP pool's idle connections say QUIT rather than vanish with the thread.
      closeConfiguredTransport();
      flushMetrics();
      return threadTracing.stop();
    })
    .then(() => process.exit(0));
});
