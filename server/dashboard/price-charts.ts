/**
 * The price chart of each of a page of the dashboard's watches or alerts, drawn on the server as SVG
 * (catalogue's drawPriceCharts: one history read for the page) so the page shows it with
 * JavaScript off (ADR 0119).
 */
import { z } from "zod";

/** A chart as the page shows it: the SVG markup, and the same in words; null when the item is gone. */
export const ZPriceChart = z
  .object({
    svg: z.string().describe("The chart as SVG markup (role=img, with a title and an aria-label)"),
    summary: z.string().describe("What the chart shows, in words"),
  })
  .nullable();
