/** The price-change handler of price watches: evaluates the item's concerned active watches (evaluate-watch.ts). */
import type { PriceChangeHandler } from "../catalogue";
import { evaluateItemWatches } from "./evaluate-watch";

export const priceWatchHandler: PriceChangeHandler = {
  name: "price-watches",
  handle: (db, event, { now }) => evaluateItemWatches(db, event.itemId, { now }),
};
