import { router } from "../platform/trpc/init";
import { getProduct } from "./get-product";
import { getPriceHistory } from "./get-price-history";
import { getStore } from "./get-store";
import { listCategories } from "./list-categories";
import { searchProducts } from "./search-products";

export const catalogRouter = router({
  searchProducts,
  getProduct,
  getPriceHistory,
  getStore,
  listCategories,
});
