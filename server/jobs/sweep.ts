/**
 * The in-process due-work sweep (DESIGN.md, Jobs): each due-work task runs in its own loop at its
 * own cadence, the next run scheduled only when the previous one ended (a task never overlaps
 * itself), independent of the others: a task that hangs stops only its own loop. The tasks are the
 * same idempotent transition functions the Inngest functions call, so an install without an Inngest
 * server still moves every timed state on time.
 */
import { systemClock, type Clock } from "../clock";
import { db, isDatabaseUnavailable } from "../db";
import { type DueWork, dueWork } from "./due-work";

const startLoop = (task: DueWork, options: { clock: Clock; intervalMs: number }) => {
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  let running: Promise<void> | undefined;
  const runOnce = () =>
    (running ??= (async () => {
      try {
        await task.run({ db: db(), now: options.clock.now(), clock: options.clock });
      } catch (error) {
        if (!isDatabaseUnavailable(error)) console.error(`[sweep] ${task.name} failed`, error);
      } finally {
        running = undefined;
      }
    })());
  const schedule = () => {
    if (isStopped) return;
    timer = setTimeout(() => void runOnce().then(schedule), options.intervalMs);
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
export const startSweep = (options: { intervalMs?: number; clock?: Clock; tasks?: readonly DueWork[] } = {}) => {
  const clock = options.clock ?? systemClock;
  const loops = (options.tasks ?? dueWork).map((task) => startLoop(task, { clock, intervalMs: options.intervalMs ?? task.intervalMs }));
  return {
    /** Stops every loop and waits for runs in progress. */
    stop: async () => void (await Promise.all(loops.map((loop) => loop.stop()))),
    /** Runs every task once now (a task already running is awaited, not started twice). */
    tick: async () => void (await Promise.all(loops.map((loop) => loop.runOnce()))),
  };
};
