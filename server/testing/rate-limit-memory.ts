/**
 * For tests that read exact rate-limit counts: a call Redis answered after its 25 ms deadline (a
 * busy machine) was decided by this process's memory instead (fail open, ADR 0080) and reads
 * memory's count, not Redis's. These read how many calls memory decided, and rerun a check once
 * when it failed while memory decided one.
 */
import { registry } from "../platform/observability/metrics";
import { seriesSum } from "./metrics-exposition";

/** How many rate-limit calls this process's memory decided (all windows, or those matching `labels`). */
export const memoryDecisions = async (labels?: Record<string, string>) =>
  seriesSum(await registry.metrics(), "shopping_rate_limit_memory_decisions_total", labels);

/**
 * Runs `check`, and once more if it failed while this process's memory decided a call. A failure
 * with no memory decision is a failure. `check` must be safe to run twice (its own fresh keys).
 */
export const unlessMemoryDecided = async (check: () => Promise<void>) => {
  const before = await memoryDecisions();
  try {
    await check();
  } catch (error) {
    if ((await memoryDecisions()) === before) throw error;
    await check();
  }
};
