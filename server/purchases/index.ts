/** What other capabilities and the edges may use of purchases: everything else in the folder is its own. */
export { purchasePageRouter } from "./cancel-page-procedures";
export { cancelPurchase } from "./cancel-purchase";
export { chargePurchase } from "./charge-purchase-job";
export { chargeDuePurchase, chargeDuePurchases } from "./charge-purchase";
export { completeLateAuthorize } from "./complete-late-authorize";
export { purchaseQuote } from "./create-purchase-procedure";
export { createPurchaseWithHold } from "./create-purchase";
export { purchasesRouter } from "./procedures";
export { cancelUrl } from "./purchase-emails";
export { hasPurchaseGrantSql } from "./purchase-grant";
export {
  ZCreatePurchaseBody,
  ZListPurchasesRequest,
  ZListPurchasesResponse,
  ZPurchase,
  ZPurchaseIdParams,
  purchasesPerHour,
} from "./purchase.schema";
export type { TPurchase, TPurchaseOutcome } from "./purchase.schema";
export { findOwnPurchase, purchaseOwnerFilter, readOwnPurchase } from "./purchases.queries";
export { purchasingAgent } from "./purchasing-agent";
export { markPurchaseRefunded } from "./mark-refunded";
export { reconcilePurchases } from "./reconcile-purchases";
export { overSpendingLimit, spendingRoom, spendingSettingsAllowingPurchase } from "./spending-room";
export { publicPurchaseStatus, publicPurchaseStatuses } from "./states";
export type { PurchaseState } from "./states";
