/**
 * The price charts of a page of the dashboard (its watches or its alerts): every item's history
 * read in one go (two queries for the page, not two an item), then each drawn as an SVG with its
 * own target line. An item that no longer exists gets no chart (null).
 */
import type { Locale } from "../../core/locale";
import type { Sql } from "../../platform/sql";
import { readPriceHistories } from "../store/price-histories";
import { priceChartSummary, priceChartSvg } from "./price-chart-svg";

export type DrawnChart = { svg: string; summary: string };

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
  return charts.map((chart) => {
    const history = histories.get(chart.itemId);
    if (!history) return null;
    const input = { ...options, history, targetCents: chart.targetCents, title: chart.title };
    return { svg: priceChartSvg(input), summary: priceChartSummary(input) };
  });
};
