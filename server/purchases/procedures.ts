import { router } from "../platform/trpc/init";
import { createPurchase } from "./create-purchase-procedure";
import { getPurchase } from "./get-purchase";
import { listPurchases } from "./list-purchases";

export const purchasesRouter = router({
  create: createPurchase,
  get: getPurchase,
  list: listPurchases,
});
