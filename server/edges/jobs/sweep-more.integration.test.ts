/** The sweep's loop: a run that stopped at its cap with work left (`{ more: true }`) is followed at once; otherwise the next waits its interval. */
import { describe, expect, it } from "vitest";
import { startSweep } from "./sweep";

describe("a sweep task with more work than one run takes", () => {
  it("runs again at once while it says more is due, then waits its interval", async () => {
    const starts: number[] = [];
    const task = {
      name: "capped",
      intervalMs: 1_000,
      run: async () => ({ more: starts.push(Date.now()) < 3 }),
    };
    const sweep = startSweep({ tasks: [task] });
    try {
      const until = Date.now() + 5_000;
      while (starts.length < 3 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(starts).toHaveLength(3);
      // The first run waited the interval; the two after it did not.
      expect(starts[2] - starts[0]).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(starts).toHaveLength(3);
    } finally {
      await sweep.stop();
    }
  });
});
