/**
 * The price chart as a PNG for emails (ADR 0119): Gmail and Outlook drop inline SVG, so the email
 * carries an <img> of this instead. resvg (Rust, prebuilt for each platform, no browser) rasterises
 * the email-sized SVG on a white background with the system's fonts; a 560×200 chart comes out at
 * a few kilobytes. Deterministic for the same SVG and fonts.
 */
import { Resvg } from "@resvg/resvg-js";
import { type PriceChartInput, priceChartSvg } from "./price-chart-svg";

/** The chart drawn at email size and rasterised. */
export const priceChartPng = (input: Omit<PriceChartInput, "size">): Buffer =>
  new Resvg(priceChartSvg({ ...input, size: "email" }), {
    background: "white",
    font: {
      loadSystemFonts: true,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  })
    .render()
    .asPng();
