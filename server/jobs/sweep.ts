/**
 * The in-process due-work sweep (DESIGN.md, Jobs): every interval it runs each due-work task once,
 * never overlapping itself. It calls the same idempotent transition functions the Inngest functions
 * call, so an install without an Inngest server still moves every timed state on time.
 */
import { systemClock, type Clock } from "../clock";
import { db } from "../db";
import { isDatabaseUnavailable } from "../db";
import { dueWork } from "./due-work";

export const startSweep = (options: { intervalMs?: number; clock?: Clock } = {}) => {
  const clock = options.clock ?? systemClock;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const task of dueWork) {
        try {
          await task.run({ db: db(), now: clock.now() });
        } catch (error) {
          if (!isDatabaseUnavailable(error)) console.error(`[sweep] ${task.name} failed`, error);
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 1000);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
};
