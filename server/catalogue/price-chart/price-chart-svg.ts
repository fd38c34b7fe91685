/**
 * An item's price history drawn as an SVG by Observable Plot on the server (ADR 0119): the price as
 * a step line over the chart's window, the target as a dashed horizontal line labelled with its
 * amount, and the lowest price marked with a dot and its amount. Plot draws into a linkedom
 * document, so no browser is needed and the page carries the finished SVG (it reads with
 * JavaScript off). The SVG is an image to assistive technology (role="img") with a <title> and an
 * aria-label that says the chart in words. Pure and deterministic: the same input gives the same
 * bytes (the class name is fixed, times come from `now`).
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import {
  defaultLocale,
  defaultTimeZone,
  formatDate,
  formatMoney,
  type Locale,
} from "../../core/locale";
import { translatorOf } from "../../core/messages";
import type { PriceHistory } from "../store/price-history";
import { type ChartData, chartDataOf } from "./chart-data";

const svgNamespace = "http://www.w3.org/2000/svg";
const dayMs = 86_400_000;

/** The dashboard's chart, and the email's (drawn for the PNG: its fonts are named, not system-ui). */
export const chartSizes = {
  page: { width: 640, height: 220, fontFamily: "system-ui, sans-serif" },
  email: { width: 560, height: 200, fontFamily: "DejaVu Sans, Liberation Sans, Arial, sans-serif" },
} as const;
export type ChartSize = keyof typeof chartSizes;

export type PriceChartInput = {
  history: PriceHistory;
  /** The watch's max price or the alert's target, in cents. */
  targetCents: number;
  now: Date;
  /** The item's title, for the chart's <title> (the PNG has none: its email's alt text says it). */
  title?: string;
  locale?: Locale;
  timeZone?: string;
  size?: ChartSize;
};

const colors = { price: "#2f5d8a", target: "#b3261e", lowest: "#1b7f3b", text: "#1d1b19" };

const wordsOf = (input: PriceChartInput, data: ChartData) => {
  const locale = input.locale ?? defaultLocale;
  const t = translatorOf(locale);
  const money = (cents: number) => formatMoney(cents, locale);
  const since = formatDate(data.from, locale, input.timeZone ?? defaultTimeZone);
  const target = money(input.targetCents);
  return {
    title:
      input.title === undefined
        ? undefined
        : t("charts.priceHistory.title", { title: input.title }),
    summary: data.hasChanged
      ? t("charts.priceHistory.summary", {
          first: money(data.firstCents),
          last: money(data.lastCents),
          since,
          target,
          lowest: money(data.lowestCents),
        })
      : t("charts.priceHistory.steady", { last: money(data.lastCents), since, target }),
    target: t("charts.priceHistory.target", { price: target }),
    lowest: t("charts.priceHistory.lowest", { price: money(data.lowestCents) }),
  };
};

/** The chart's words alone (the email's alt text says the same as the page's aria-label). */
export const priceChartSummary = (input: PriceChartInput): string =>
  wordsOf(input, chartDataOf(input.history, input.now)).summary;

/** The price axis: the prices and the target, with a margin so neither sits on the frame. */
const priceDomain = (data: ChartData, targetCents: number): [number, number] => {
  const prices = data.steps.map((step) => step.priceCents);
  const low = Math.min(...prices, targetCents);
  const high = Math.max(...prices, targetCents);
  const pad = Math.max(Math.round((high - low) * 0.15), Math.round(high * 0.05), 100);
  return [Math.max(0, low - pad), high + pad];
};

let sharedDocument: Document | undefined;
const serverDocument = () =>
  (sharedDocument ??= parseHTML("<!doctype html><html><body></body></html>")
    .document as unknown as Document);

/** The chart as an SVG string (no XML declaration), ready to put in a page or hand to resvg. */
export const priceChartSvg = (input: PriceChartInput): string => {
  const data = chartDataOf(input.history, input.now);
  const words = wordsOf(input, data);
  const size = chartSizes[input.size ?? "page"];
  const locale = input.locale ?? defaultLocale;
  const timeZone = input.timeZone ?? defaultTimeZone;
  // A chart of an item listed this instant still needs a width of time.
  const from =
    data.now.getTime() - data.from.getTime() < dayMs
      ? new Date(data.now.getTime() - dayMs)
      : data.from;
  const day = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone });
  const lowest = { at: data.lowestAt, priceCents: data.lowestCents };
  const targetAbove = input.targetCents >= data.lastCents;
  const isLowestLate =
    data.lowestAt.getTime() - from.getTime() > (data.now.getTime() - from.getTime()) / 2;
  const svg = Plot.plot({
    document: serverDocument(),
    className: "price-chart",
    width: size.width,
    height: size.height,
    marginLeft: 64,
    marginRight: 28,
    marginTop: 18,
    marginBottom: 26,
    style: {
      fontFamily: size.fontFamily,
      fontSize: "11px",
      color: colors.text,
      background: "white",
    },
    x: {
      type: "utc",
      domain: [from, data.now],
      ticks: 4,
      tickFormat: (at: Date) => day.format(at),
      label: null,
    },
    y: {
      domain: priceDomain(data, input.targetCents),
      ticks: 4,
      grid: true,
      tickFormat: (cents: number) => formatMoney(Math.round(cents), locale),
      label: null,
    },
    marks: [
      Plot.ruleY([input.targetCents], {
        stroke: colors.target,
        strokeDasharray: "5,4",
        strokeWidth: 1.5,
      }),
      Plot.text([{ at: data.now, priceCents: input.targetCents }], {
        x: "at",
        y: "priceCents",
        text: () => words.target,
        textAnchor: "end",
        dx: -4,
        dy: targetAbove ? -8 : 10,
        fill: colors.target,
        fontWeight: 600,
      }),
      Plot.lineY(data.steps, {
        x: "at",
        y: "priceCents",
        curve: "step-after",
        stroke: colors.price,
        strokeWidth: 2,
      }),
      Plot.dot([lowest], { x: "at", y: "priceCents", r: 4, fill: colors.lowest }),
      Plot.text([lowest], {
        x: "at",
        y: "priceCents",
        text: () => words.lowest,
        // Beside the dot, on the side with room: a low of the last days is labelled to its left.
        textAnchor: isLowestLate ? "end" : "start",
        dx: isLowestLate ? -6 : 6,
        dy: targetAbove ? 12 : -10,
        fill: colors.lowest,
      }),
    ],
  }) as unknown as SVGSVGElement;
  const document = serverDocument();
  svg.setAttribute("xmlns", svgNamespace);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", words.summary);
  // Plot names each mark's <g> with an aria-label ("line", "dot"); inside an image those are not
  // allowed (axe: aria-prohibited-attr) and say nothing the image's own label does not. The name
  // stays as data-mark (the tests find the marks by it).
  for (const mark of svg.querySelectorAll("[aria-label]")) {
    if (mark === svg) continue;
    mark.setAttribute("data-mark", mark.getAttribute("aria-label")!);
    mark.removeAttribute("aria-label");
  }
  if (words.title !== undefined) {
    const title = document.createElementNS(svgNamespace, "title");
    title.textContent = words.title;
    svg.insertBefore(title, svg.firstChild);
  }
  return svg.outerHTML;
};
