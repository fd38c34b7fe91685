/** What other capabilities and the edges may use of purchases: everything else in the folder is its own. */
export { checkCancelLink, purchasePageRouter, ZCancelLink } from "./cancel-page-procedures";
export { cancelPurchase } from "./cancel-purchase";
export { chargePurchase } from "./charge-purchase-job";
export { chargeDuePurchase, chargeDuePurchases } from "./charge-purchase";
export { completeLateAuthorize } from "./complete-late-authorize";
export { buyQuote } from "./buy-quote";
export { holdSandboxPurchase } from "./hold-sandbox-purchase";
export { chargeSandboxPurchaseNow } from "./charge-sandbox-purchase-now";
export { purchasesRouter } from "./procedures";
export { cancelUrl, withAbsolutePictures } from "./purchase-emails";
export type { CopyEmailFacts } from "./purchase-emails";
export {
  ZCreatePurchaseBody,
  ZListPurchasesRequest,
  ZListPurchasesResponse,
  ZPurchase,
  ZPurchaseIdParams,
} from "./purchase.schema";
export type { TPurchase, TPurchaseOutcome } from "./purchase.schema";
// The purchases store's functions other capabilities call (ADR 0103): the owner's reads (sandbox),
// the grant rule's SQL (price watches), the ops command's summary.
export { findOwnPurchase, purchaseOwnerFilter, readOwnPurchase } from "./store/own-purchases";
export { hasPurchaseGrantSql } from "./store/locked-state";
export {
  findPurchaseOfQuote,
  readPurchaseStates,
  readPurchaseSummary,
  readRecordedPurchase,
  readWhatWasBought,
} from "./store/purchases";
export type { RecordedPurchase } from "./store/purchases";
export { purchasingAgent } from "./purchasing-agent";
export { markPurchaseRefunded } from "./mark-refunded";
export { reconcilePurchases } from "./reconcile-purchases";
export { overSpendingLimit, purchasesPerHour } from "./policy";
export { spendingRoom } from "./spending-room";
export { standingOrderBuyer } from "./standing-order-buyer";
export { standingOrderFailure } from "./standing-order-failure";
export { publicPurchaseStatus, publicPurchaseStatuses } from "./states";
export type { PurchaseState } from "./states";
