/**
 * The in-process due-work sweep (DESIGN.md, Jobs): each due-work task runs in its own loop at its
 * own cadence, the next run scheduled only when the previous one ended (a task never overlaps
 * itself; one that stopped at its cap with work left runs again at once), independent of the
 * others: a task that hangs stops only its own loop. The tasks are the
 * same idempotent transition functions the Inngest functions call, so an install without an Inngest
 * server still moves every timed state on time.
 */
import { systemClock, type Clock } from "../../platform/clock";
import { db, isDatabaseUnavailable } from "../../platform/db";
import { type DueWork, dueWork } from "./due-work";

/** A run that stopped at its cap with work left answers `{ more: true }`: the next run starts at once, not after the interval. */
const hasMore = (result: unknown) =>
  typeof result === "object" && result !== null && (result as { more?: unknown }).more === true;

const startLoop = (
  task: DueWork,
  options: { clock: Clock; intervalMs: number; signal: AbortSignal },
) => {
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  let running: Promise<boolean> | undefined;
  /** Runs the task once (or joins the run in progress); true when it says more is due now. */
  const runOnce = () =>
    (running ??= (async () => {
      try {
        return hasMore(
          await task.run({
            db: db(),
            now: options.clock.now(),
            clock: options.clock,
            signal: options.signal,
          }),
        );
      } catch (error) {
        if (!isDatabaseUnavailable(error)) console.error(`[sweep] ${task.name} failed`, error);
        return false;
      } finally {
        running = undefined;
      }
    })());
  const schedule = (delayMs = options.intervalMs) => {
    if (isStopped) return;
    timer = setTimeout(
      () => void runOnce().then((more) => schedule(more ? 0 : options.intervalMs)),
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
  const loops = (options.tasks ?? dueWork).map((task) =>
    startLoop(task, {
      clock,
      intervalMs: options.intervalMs ?? task.intervalMs,
      signal: stopping.signal,
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
