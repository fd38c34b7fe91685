/**
 * The price chart as a PNG for emails (ADR 0119): Gmail and Outlook drop inline SVG, so the email
 * carries an <img> of this instead. resvg (Rust, prebuilt for each platform, no browser) rasterises
 * the email-sized SVG on a white background with the system's fonts, on libuv's thread pool
 * (renderAsync) so the event loop keeps serving; a 560×200 chart is about 7 KB and 25 ms of CPU.
 * Deterministic for the same SVG and fonts.
 */
import { renderAsync } from "@resvg/resvg-js";
import { type PriceChartInput, priceChartSvg } from "./price-chart-svg";

/** The chart drawn at email size and rasterised. */
export const priceChartPng = async (input: Omit<PriceChartInput, "size">): Promise<Buffer> =>
  (
    await renderAsync(priceChartSvg({ ...input, size: "email" }), {
      background: "white",
      font: {
        loadSystemFonts: true,
        defaultFontFamily: "DejaVu Sans",
        sansSerifFamily: "DejaVu Sans",
      },
    })
  ).asPng();
