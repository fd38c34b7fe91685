/**
 * GET /charts/price-history/{item_id}.png?target=&lang=&token= (app/charts/price-history/[file]):
 * the PNG of an item's price chart that watch and alert emails show. Only addresses the service
 * signed are drawn (chart-links.ts); anything else, a forged or expired token, a hostile file name
 * or target, or an item that is gone, is 404 in the shared error shape, with no stack. A drawn
 * chart is kept in memory for ten minutes (a mail provider's image proxy and a person reopening
 * the email fetch it again; requests for one chart while it is being drawn share the drawing),
 * and browsers and proxies may keep it an hour.
 */
import { AppError } from "../../core/errors";
import { db } from "../../platform/db";
import { errorResponse, toAppError } from "../../platform/http/respond";
import { readPriceHistory } from "../store/price-history";
import { type ChartRequest, verifyChartRequest } from "./chart-links";

const cacheMs = 10 * 60_000;
const cacheEntries = 256;
/** Drawn (or being drawn) charts by signed subject; undefined for an item that is gone. */
const drawn = new Map<string, { png: Promise<Buffer | undefined>; until: number }>();

const draw = async ({ itemId, targetCents, locale }: ChartRequest, now: Date) => {
  const history = await readPriceHistory(db(), itemId, now);
  if (!history) return undefined;
  // Loaded on the first chart image (Plot, linkedom, resvg), not with the catalogue.
  const { priceChartPng } = await import("./price-chart-png");
  return priceChartPng({ history, targetCents, locale, now });
};

const drawOnce = (chart: ChartRequest, now: Date) => {
  const key = `${chart.itemId}:${chart.targetCents}:${chart.locale}`;
  const kept = drawn.get(key);
  if (kept && kept.until > now.getTime()) return kept.png;
  if (drawn.size >= cacheEntries) drawn.delete(drawn.keys().next().value!);
  const png = draw(chart, now);
  drawn.set(key, { png, until: now.getTime() + cacheMs });
  // A failure (the database away) is not kept: the next request tries again.
  png.catch(() => drawn.delete(key));
  return png;
};

const notFound = () =>
  errorResponse(new AppError("not_found", { message: "No such chart." }), {
    "Cache-Control": "no-store",
  });

const pngResponse = (png: Buffer) =>
  new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });

/** Answers a chart image request; `file` is the path's last segment ("42.png"). */
export const servePriceChartImage = async (
  request: Request,
  file: string,
  now: Date,
): Promise<Response> => {
  const chart = verifyChartRequest(file, new URL(request.url).searchParams, now);
  if (!chart) return notFound();
  try {
    const png = await drawOnce(chart, now);
    return png ? pngResponse(png) : notFound();
  } catch (error) {
    return errorResponse(toAppError(error));
  }
};
