import { servePriceChartImage } from "@/server/catalogue";
import { systemClock } from "@/server/platform/clock";

export const dynamic = "force-dynamic";

/** The PNG price chart that watch and alert emails show; only signed addresses are drawn (ADR 0119). */
export const GET = async (request: Request, context: { params: Promise<{ file: string }> }) =>
  servePriceChartImage(request, (await context.params).file, systemClock.now());
