/** The sweep thread's entry (sweep-thread.ts): runs every due-work loop until the server says stop. */
import { parentPort } from "node:worker_threads";
// First: tracing patches the modules the tasks load next.
import { threadTracing } from "./thread-tracing";
import { startSweep } from "./sweep";

if (!parentPort) throw new Error("sweep-worker.ts runs on the sweep thread only (sweep-thread.ts)");
const port = parentPort;
const sweep = startSweep();
// The listener keeps the thread alive (the loops' timers are unref'd); "stop" ends it after the runs in progress.
port.on("message", (message) => {
  if (message !== "stop") return;
  void sweep
    .stop()
    .then(() => threadTracing.stop())
    .then(() => process.exit(0));
});
