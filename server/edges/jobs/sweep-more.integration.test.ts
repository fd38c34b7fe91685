/** The sweep's loop: a run that stopped at its cap with work left (`{ more: true }`) is followed at once, unless its task gives way to a busy one; otherwise the next waits its interval. */
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

  it("a task that gives way to another runs at its interval while that one is busy, and at once when it is not", async () => {
    let releaseBusy = () => {};
    const busyUntilReleased = new Promise<void>((resolve) => (releaseBusy = resolve));
    const sale = {
      name: "sale",
      intervalMs: 20,
      // Busy: its first run lasts until released.
      run: async () => {
        await busyUntilReleased;
        return { more: false };
      },
    };
    const starts: number[] = [];
    const outbox = {
      name: "outbox",
      intervalMs: 300,
      // Always a full batch, for 40 runs.
      run: async () => ({ more: starts.push(Date.now()) < 40 }),
      givesWayTo: "sale",
    };
    const sweep = startSweep({ tasks: [sale, outbox] });
    try {
      const waitForRuns = async (runs: number) => {
        const until = Date.now() + 5_000;
        while (starts.length < runs && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(starts.length).toBeGreaterThanOrEqual(runs);
      };
      await waitForRuns(3);
      // While the sale runs: a full batch is followed after the interval, not at once.
      expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(250);
      expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(250);
      releaseBusy();
      const released = Date.now();
      await waitForRuns(40);
      // Once the sale's run ended without more: the rest at once (the 37 left, at the interval, would take 11 s).
      expect(starts).toHaveLength(40);
      expect(starts[39] - released).toBeLessThan(5_000);
    } finally {
      await sweep.stop();
    }
  });
});
