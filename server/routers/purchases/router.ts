import { router } from "../../trpc/init";
import { createPurchase } from "./create-purchase";
import { getPurchase } from "./get-purchase";

export const purchasesRouter = router({ create: createPurchase, get: getPurchase });
