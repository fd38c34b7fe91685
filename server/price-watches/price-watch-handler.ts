/** The price-change handler of price watches: evaluates the item's concerned active watches (evaluate-watch.ts). */
import type { PriceChangeHandler } from "../catalogue";
import { observe, secondsSince } from "../platform/observability/metrics";
import { evaluateItemWatches } from "./evaluate-watch";

export const priceWatchHandler: PriceChangeHandler = {
  name: "price-watches",
  handle: async (db, event, { now }) => {
    await evaluateItemWatches(db, event.itemId, { now });
    // From the change being recorded to its item's watches all evaluated (wall clock: the lag people wait).
    observe("shopping_watch_evaluation_lag_seconds", secondsSince(event.createdAt));
  },
};
