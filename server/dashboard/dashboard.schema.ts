/** Schemas the dashboard's lists share. Imports only zod. */
import { z } from "zod";

/** A page of a dashboard list (1 when not given). */
export const ZDashboardPageInput = z
  .object({ page: z.number().int().min(1).max(1000).default(1) })
  .strict()
  .default({ page: 1 });

/** The item of a watch, an alert or a search watch's purchase as the dashboard's pages show it (price-watches' WatchedItem). */
export const ZWatchedItem = z.object({
  title: z.string(),
  priceCents: z.number().int(),
  url: z.string(),
  condition: z.string().nullable(),
  imageUrl: z.string().nullable(),
  storeName: z.string(),
});
