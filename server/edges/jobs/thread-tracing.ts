/**
 * The sweep thread's tracing (docs/adr/0113-traces.md), started as this module loads: a worker has
 * its own modules, so its own SDK must patch them, and sweep-worker.ts imports this first, before
 * the tasks load `pg` and node:http. Each processor call a task makes (a purchase's capture, a
 * settlement) is then a trace of its own; the loops' polls make none. Off without an endpoint.
 */
import { env } from "../../platform/env";
import { startTracing } from "../../platform/observability/tracing";

export const threadTracing = startTracing(env());
