/**
 * The price charts of a page of the dashboard (its watches or its alerts): every item's history
 * read in one go (two queries for the page, not two an item), then each drawn as an SVG with its
 * own target line. An item that no longer exists gets no chart (null).
 *
 * Drawing costs about 10 ms of CPU a chart, and the watches page reads its list again every 15 s,
 * so drawn charts are kept (at most 1,000, oldest out) by everything they are drawn from. For that
 * the page's charts end at the next whole hour instead of this millisecond: every price so far is
 * on the chart (each began before now), and an hour is a third of a pixel of a 90-day chart.
 * Plot and linkedom are loaded on the first chart, not with the catalogue: most processes and
 * routes never draw one (docs/adr/0093-memory-of-the-running-service.md).
 */
import type { Locale } from "../../core/locale";
import type { Sql } from "../../platform/sql";
import type { PriceHistory } from "../store/price-history";
import { readPriceHistories } from "../store/price-histories";
import type { PriceChartInput } from "./price-chart-svg";

export type DrawnChart = { svg: string; summary: string };

const hourMs = 3_600_000;
const keptCharts = 1_000;
const kept = new Map<string, DrawnChart>();

const keyOf = (input: PriceChartInput & { history: PriceHistory }) =>
  JSON.stringify([
    input.history.itemId,
    input.history.listedAt,
    input.history.points,
    input.targetCents,
    input.now,
    input.title,
    input.locale,
    input.timeZone,
  ]);

const drawKept = (
  draw: typeof import("./price-chart-svg"),
  input: PriceChartInput & { history: PriceHistory },
): DrawnChart => {
  const key = keyOf(input);
  const found = kept.get(key);
  if (found) return found;
  const chart = { svg: draw.priceChartSvg(input), summary: draw.priceChartSummary(input) };
  if (kept.size >= keptCharts) kept.delete(kept.keys().next().value!);
  kept.set(key, chart);
  return chart;
};

export const drawPriceCharts = async (
  sql: Sql,
  charts: readonly { itemId: number; targetCents: number; title: string }[],
  options: { now: Date; locale: Locale; timeZone: string },
): Promise<(DrawnChart | null)[]> => {
  const histories = await readPriceHistories(
    sql,
    charts.map((chart) => chart.itemId),
    options.now,
  );
  const draw = await import("./price-chart-svg");
  const drawnTo = new Date(Math.ceil(options.now.getTime() / hourMs) * hourMs);
  return charts.map((chart) => {
    const history = histories.get(chart.itemId);
    if (!history) return null;
    return drawKept(draw, {
      history,
      targetCents: chart.targetCents,
      title: chart.title,
      locale: options.locale,
      timeZone: options.timeZone,
      now: drawnTo,
    });
  });
};
