/** The item of a watch, an alert or a search watch's purchase as the dashboard's pages show it (price-watches' WatchedItem). Imports only zod. */
import { z } from "zod";

export const ZWatchedItem = z.object({
  title: z.string(),
  priceCents: z.number().int(),
  url: z.string(),
  condition: z.string().nullable(),
  imageUrl: z.string().nullable(),
  storeName: z.string(),
});
