/** What other capabilities and the edges may use of price-changes: everything else in the folder is its own. */
export { processPriceChangesFunction } from "./process-price-changes-job";
export { processPriceChanges } from "./process-price-changes";
