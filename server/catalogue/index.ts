/** What other capabilities and the edges may use of catalogue: everything else in the folder is its own. */
export {
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
export { catalogRouter } from "./procedures";
export { absolute } from "./product-json";
export { catalogSearch } from "./search/index";
export type { CatalogSearch } from "./search/types";
export { setItemPrice } from "./set-item-price";
export type { PriceChangeHandler, PriceChangeRecord } from "./price-change-events";
