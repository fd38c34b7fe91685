/** What other capabilities and the edges may use of catalogue: everything else in the folder is its own. */
export {
  checkPriceRange,
  ZGetProductRequest,
  ZGetStoreRequest,
  ZListCategoriesResponse,
  ZPagination,
  ZProductDetail,
  ZSearchProductsRequest,
  ZSearchProductsResponse,
  ZStoreDetail,
  ZStoreSummary,
  pageFields,
} from "./catalog.schema";
export { ZPriceHistory } from "./price-history.schema";
export { catalogRouter } from "./procedures";
export { absolute } from "./product-json";
export { emailItemOf } from "./email-item";
export { setItemPrice } from "./set-item-price";
export type { PriceChangeHandler } from "./price-change-events";
// The catalogue store's functions other capabilities call (ADR 0103): buying reads and writes of
// items and variants (checkout, purchases, price watches), what price alerts read of an item, the
// price-change events (price-changes claims and finishes them), and the ops commands' store setting
// and sandbox purchase item.
export {
  hasItemNotActive,
  loadQuotableItems,
  markItemSold,
  markSoldOut,
  readAlertFacts,
  readListings,
  reserveVariants,
  restockVariants,
} from "./store/stock";
export type { QuotableItem } from "./store/stock";
export {
  findBuyableItem,
  findItemCards,
  setStoreAgentCheckout,
  shippingRatesOf,
} from "./store/products";
export type { ItemCard } from "./store/products";
export {
  claimPriceChangeEvents,
  failPriceChangeEvent,
  finishPriceChangeEvent,
  releasePriceChangeEvents,
} from "./store/prices";
export {
  findStorePayoutSettings,
  setStorePayoutAccount,
  setStorePlatformFee,
} from "./store/payout-settings";
// What /metrics reads of this process's in-memory search index.
export { searchIndexState } from "./search";
// An item's price history (price history endpoint, the watch preview's 90-day low, the charts).
export { readPriceHistory } from "./store/price-history";
// New listings, and matching one item against saved searches with search's own rules (search watches).
export { listItems } from "./list-items";
export type { NewListing } from "./list-items";
export {
  categoryPathsOf,
  itemMatchesFilter,
  searchFilterOf,
  searchLexemesSql,
} from "./search/item-matches";
export type { ItemMatchFacts, SearchFilter } from "./search/item-matches";
export { readMatchFacts } from "./store/match-facts";
// The price charts of the dashboard's pages and of the watch and alert emails, and the email image's route (ADR 0119).
export { drawPriceCharts, priceChartImage, servePriceChartImage } from "./price-chart";
