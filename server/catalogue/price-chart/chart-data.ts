/**
 * What a price chart shows, worked out from an item's price history: the window (the last 90 days,
 * or since the item was listed when that is shorter), the price as steps over it (each point clipped
 * to the window, the last one held until now), the lowest price in the window and where it first
 * was, and the first and last prices. Pure: the SVG, the PNG and the words all read this.
 */
import type { PriceHistory } from "../store/price-history";

const dayMs = 86_400_000;

/** How far back a chart looks. */
export const chartWindowDays = 90;

/** One step of the line: the price from `at` until the next step (the last step ends at `now`). */
export type ChartStep = { at: Date; priceCents: number };

export type ChartData = {
  from: Date;
  now: Date;
  /** Oldest first; the last repeats the price now at `now`, so the line reaches the right edge. */
  steps: ChartStep[];
  firstCents: number;
  lastCents: number;
  lowestCents: number;
  /** When the window's lowest price began (or the window's start, if it held into it). */
  lowestAt: Date;
  /** Whether the price changed inside the window. */
  hasChanged: boolean;
};

export const chartDataOf = (history: PriceHistory, now: Date): ChartData => {
  const windowStart = new Date(now.getTime() - chartWindowDays * dayMs);
  const from = history.listedAt > windowStart ? history.listedAt : windowStart;
  const shown = history.points
    .filter((point) => (point.to === null || point.to > from) && point.from <= now)
    .map((point) => ({
      at: point.from < from ? from : point.from,
      priceCents: point.priceCents,
    }));
  // A history always ends with an open point, so something is shown; guard anyway for a clock behind the data.
  const steps =
    shown.length > 0 ? shown : [{ at: from, priceCents: history.points.at(-1)!.priceCents }];
  const last = steps.at(-1)!;
  const lowest = steps.reduce((low, step) => (step.priceCents < low.priceCents ? step : low));
  return {
    from,
    now,
    steps: [...steps, { at: now, priceCents: last.priceCents }],
    firstCents: steps[0]!.priceCents,
    lastCents: last.priceCents,
    lowestCents: lowest.priceCents,
    lowestAt: lowest.at,
    hasChanged: steps.some((step) => step.priceCents !== steps[0]!.priceCents),
  };
};
