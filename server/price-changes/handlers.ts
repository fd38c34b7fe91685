/**
 * What happens when an item's price changes: one handler per feature, each run for every recorded
 * price change by process-price-changes.ts (in this order). A handler is idempotent and reads live
 * state (the item's current price), so running an event twice, or two events of one item out of
 * order, does no harm. To add a feature (price alerts), add its handler to the list.
 */
import type { PriceChangeHandler } from "../catalogue";
import { priceAlertHandler } from "../price-alerts";
import { priceWatchHandler } from "../price-watches";
import { searchWatchHandler } from "../search-watches";

export const priceChangeHandlers: readonly PriceChangeHandler[] = [
  priceWatchHandler,
  priceAlertHandler,
  searchWatchHandler,
];
