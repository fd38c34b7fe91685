/** Refunds: money given back from a store order, by the operator, a store's cancellation or the processor (docs/adr/0107). */
export { syncProcessorRefunds } from "./processor-refunds";
export { refundOrder } from "./refund-order";
export type { RefundOutcome } from "./refund-order";
export { refundPurchase } from "./refund-purchase";
export { retryPendingRefunds } from "./retry-pending-refunds";
export { sendRefundBackInSandbox } from "./sandbox-refund-sent-back";
export {
  findOrderByNumber as refundableOrder,
  listOrderRefunds,
  listRefundsSentBack,
  refundsOfPurchases,
} from "./store";
export { refundShare } from "./policy";
export { purchaseRefundsRouter } from "./procedures";
export { refundView } from "./refund-view";
