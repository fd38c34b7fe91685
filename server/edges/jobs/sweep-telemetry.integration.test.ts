/**
 * One log line and the metrics of each sweep run (sweep.ts): a run that did work at info with what
 * it returned, an idle one at debug only (deliver-webhooks runs every 200 ms), a failed one at
 * error with its stack, each counted in shopping_job_runs_total by job and result.
 */
import { describe, expect, it } from "vitest";
import { registry } from "../../platform/observability/metrics";
import { captureLogLines } from "../../testing/log-capture";
import { seriesSum } from "../../testing/metrics-exposition";
import { startSweep } from "./sweep";

const runsOf = async (job: string, result: string) =>
  seriesSum(
    await registry.getSingleMetricAsString("shopping_job_runs_total"),
    "shopping_job_runs_total",
    {
      job,
      result,
    },
  );

describe("sweep run telemetry", () => {
  it("logs a run that did work at info with its counts, an idle run not at info, a failure once with its stack; counts each", async () => {
    const logs = captureLogLines();
    const before = {
      busy: await runsOf("test-busy", "ok"),
      idle: await runsOf("test-idle", "ok"),
      broken: await runsOf("test-broken", "failed"),
    };
    const sweep = startSweep({
      intervalMs: 60_000,
      tasks: [
        {
          name: "test-busy",
          intervalMs: 60_000,
          run: async () => ({ sent: 2, failed: 0, ids: ["eml_secret"] }),
        },
        { name: "test-idle", intervalMs: 60_000, run: async () => ({ sent: 0, failed: 0 }) },
        {
          name: "test-broken",
          intervalMs: 60_000,
          run: async () => {
            throw new Error("task exploded");
          },
        },
      ],
    });
    await sweep.tick();
    await sweep.stop();
    const busy = logs.lines.find((line) => line.job === "test-busy");
    expect(busy).toMatchObject({
      level: "info",
      msg: "job run",
      result: "ok",
      returned: { sent: 2, failed: 0 },
    });
    expect(busy?.duration_ms).toEqual(expect.any(Number));
    expect(logs.text()).not.toContain("eml_secret");
    expect(logs.lines.find((line) => line.job === "test-idle")).toBeUndefined();
    const broken = logs.lines.filter((line) => line.job === "test-broken");
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({
      level: "error",
      result: "failed",
      err: { message: "task exploded" },
    });
    expect((broken[0].err as { stack: string }).stack).toMatch(/\n\s+at /);
    expect(await runsOf("test-busy", "ok")).toBe(before.busy + 1);
    expect(await runsOf("test-idle", "ok")).toBe(before.idle + 1);
    expect(await runsOf("test-broken", "failed")).toBe(before.broken + 1);
  });
});
