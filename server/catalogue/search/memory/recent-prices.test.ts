/**
 * The index's recent prices (recent-prices.ts) against brute force: for random change lists and
 * every time from the latest change to past the windows, the highest old price made after `since`
 * read from the stairs equals the maximum over every change; what the horizon keeps and prunes; and
 * which times it covers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dropWindowMs, saleWindowMs } from "../types";
import { RecentPrices, stairsOf } from "./recent-prices";

const hourMs = 3_600_000;

describe("recent prices", () => {
  it("read the highest old price since any time after the latest change as the maximum over every change", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ gapHours: fc.nat({ max: 60 }), oldCents: fc.integer({ min: 1, max: 50 }) }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.array(fc.nat({ max: 10 * 24 }), { minLength: 1, maxLength: 10 }),
        (steps, laterHours) => {
          let atMs = 1_700_000_000_000;
          const changes = steps.map((step) => ({
            atMs: (atMs += step.gapHours * hourMs),
            oldCents: step.oldCents,
          }));
          const prices = new RecentPrices(-Infinity);
          prices.replace(
            [7],
            changes.map((change) => ({ itemId: 7, ...change })),
          );
          for (const hours of laterHours) {
            const nowMs = atMs + hours * hourMs;
            const sinceMs = nowMs - dropWindowMs;
            const expected = Math.max(
              -1,
              ...changes.filter((change) => change.atMs > sinceMs).map((change) => change.oldCents),
            );
            const seen: number[][] = [];
            prices.forEach(sinceMs, (...args) => seen.push(args));
            expect(seen).toEqual([[7, atMs, changes.at(-1)!.oldCents, expected]]);
          }
        },
      ),
    );
  });

  it("keep only a change whose old price is above every later one, within the week before the latest", () => {
    const day = 86_400_000;
    expect(
      stairsOf([
        { atMs: 0, oldCents: 900 },
        { atMs: 2 * day, oldCents: 500 },
        { atMs: 3 * day, oldCents: 700 },
        { atMs: 4 * day, oldCents: 300 },
        { atMs: 5 * day, oldCents: 400 },
        { atMs: 8 * day, oldCents: 100 },
      ]),
    ).toEqual([3 * day, 700, 5 * day, 400, 8 * day, 100]);
  });

  it("hold the items whose latest change is after the horizon, prune as it moves, and cover the times it can answer", () => {
    const prices = new RecentPrices(1_000);
    prices.replace(
      [1, 2, 3],
      [
        { itemId: 1, atMs: 900, oldCents: 10 },
        { itemId: 2, atMs: 900, oldCents: 10 },
        { itemId: 2, atMs: 1_500, oldCents: 20 },
        { itemId: 3, atMs: 5_000, oldCents: 30 },
      ],
    );
    expect(prices.size).toBe(2);
    expect(prices.covers(1_000 + saleWindowMs)).toBe(true);
    expect(prices.covers(999 + saleWindowMs)).toBe(false);
    prices.prune(1_500);
    expect(prices.size).toBe(1);
    // A time before the newest change held is a clock behind the data.
    const behind = new RecentPrices(-Infinity);
    behind.replace([4], [{ itemId: 4, atMs: 10_000, oldCents: 5 }]);
    expect(behind.covers(9_999)).toBe(false);
    expect(behind.covers(10_000)).toBe(true);
    // Replacing an item with no changes forgets it.
    behind.replace([4], []);
    expect(behind.size).toBe(0);
  });
});
