/**
 * The in-process due-work sweep (DESIGN.md, Jobs): each due-work task runs in its own loop at its
 * own cadence, the next run scheduled only when the previous one ended (a task never overlaps
 * itself; one that stopped at its cap with work left runs again at once, unless it gives way to a
 * task busy on this instance: DueWork.givesWayTo), independent of the others: a task that hangs
 * stops only its own loop. The tasks are the same idempotent transition functions the Inngest
 * functions call, so an install without an Inngest server still moves every timed state on time.
 */
import { performance } from "node:perf_hooks";
import { systemClock, type Clock } from "../../platform/clock";
import { db, isDatabaseUnavailable } from "../../platform/db";
import { logger } from "../../platform/observability/log";
import { count, observe } from "../../platform/observability/metrics";
import { type DueWork, dueWork } from "./due-work";

/** A run that stopped at its cap with work left answers `{ more: true }`: the next run starts at once, not after the interval. */
const hasMore = (result: unknown) =>
  typeof result === "object" && result !== null && (result as { more?: unknown }).more === true;

/**
 * What a run returned, for its log line: the counts of a result object (`{ sent: 2, failed: 0 }`),
 * or a count; anything else (ids, rows) is left out.
 */
const summaryOf = (result: unknown): Record<string, number | boolean> | undefined => {
  if (typeof result === "number") return { count: result };
  if (typeof result !== "object" || result === null || Array.isArray(result)) return undefined;
  const entries = Object.entries(result).filter(
    ([, value]) => typeof value === "number" || typeof value === "boolean",
  );
  return entries.length ? Object.fromEntries(entries.slice(0, 12)) : undefined;
};

/** A run did work when it says so with a count above zero, or a `more`; an idle run logs at debug only (deliver-webhooks runs every 200 ms). */
const didWork = (summary: Record<string, number | boolean> | undefined) =>
  Object.values(summary ?? {}).some(
    (value) => value === true || (typeof value === "number" && value > 0),
  );

/** One log line and the metrics of one run. */
const recordRun = (
  job: string,
  startedAt: number,
  outcome: { result?: unknown; error?: unknown },
) => {
  const seconds = (performance.now() - startedAt) / 1000;
  const failed = "error" in outcome;
  count("shopping_job_runs_total", { job, result: failed ? "failed" : "ok" });
  observe("shopping_job_run_duration_seconds", seconds, { job });
  const duration_ms = Math.round(seconds * 10_000) / 10;
  if (failed) {
    // The database being down is the outage's own alert (every request says 503): no stack a run.
    if (isDatabaseUnavailable(outcome.error))
      logger.debug({ job, duration_ms, result: "failed" }, "job run: database unavailable");
    else logger.error({ job, duration_ms, result: "failed", err: outcome.error }, "job run failed");
    return;
  }
  const summary = summaryOf(outcome.result);
  logger[didWork(summary) ? "info" : "debug"](
    { job, duration_ms, result: "ok", ...(summary && { returned: summary }) },
    "job run",
  );
};

/** The tasks busy on this instance: a run in progress, or the last run said more is due. */
type BusyTasks = Set<string>;

const startLoop = (
  task: DueWork,
  options: { clock: Clock; intervalMs: number; signal: AbortSignal; busy: BusyTasks },
) => {
  const { busy } = options;
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  let running: Promise<boolean> | undefined;
  /** Runs the task once (or joins the run in progress); true when it says more is due now. */
  const runOnce = () =>
    (running ??= (async () => {
      const startedAt = performance.now();
      busy.add(task.name);
      let more = false;
      try {
        const result = await task.run({
          db: db(),
          now: options.clock.now(),
          clock: options.clock,
          signal: options.signal,
        });
        recordRun(task.name, startedAt, { result });
        return (more = hasMore(result));
      } catch (error) {
        recordRun(task.name, startedAt, { error });
        return false;
      } finally {
        if (!more) busy.delete(task.name);
        running = undefined;
      }
    })());
  const givingWay = () => task.givesWayTo !== undefined && busy.has(task.givesWayTo);
  const schedule = (delayMs = options.intervalMs) => {
    if (isStopped) return;
    timer = setTimeout(
      () => void runOnce().then((more) => schedule(more && !givingWay() ? 0 : options.intervalMs)),
      delayMs,
    );
    timer.unref();
  };
  schedule();
  return {
    runOnce,
    stop: async () => {
      isStopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};

/** Starts one loop per task; `intervalMs` overrides every task's cadence (tests). */
export const startSweep = (
  options: { intervalMs?: number; clock?: Clock; tasks?: readonly DueWork[] } = {},
) => {
  const clock = options.clock ?? systemClock;
  // Aborted by stop: a run in progress takes no new item and releases the leases it has not started on.
  const stopping = new AbortController();
  const busy: BusyTasks = new Set();
  const loops = (options.tasks ?? dueWork).map((task) =>
    startLoop(task, {
      clock,
      intervalMs: options.intervalMs ?? task.intervalMs,
      signal: stopping.signal,
      busy,
    }),
  );
  return {
    /** Stops every loop: runs in progress finish the items they started and release the rest; waits for them. */
    stop: async () => {
      stopping.abort();
      await Promise.all(loops.map((loop) => loop.stop()));
    },
    /** Runs every task once now (a task already running is awaited, not started twice). */
    tick: async () => void (await Promise.all(loops.map((loop) => loop.runOnce()))),
  };
};
