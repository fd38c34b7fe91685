/** What other capabilities and the edges may use of checkout: everything else in the folder is its own. */
export { markCheckoutCaptureFailed } from "./checkout-capture-failed";
export { closeCheckout, expireDueCheckouts } from "./checkout-transitions";
export { checkoutUrl, toWireCheckout } from "./checkout-view";
export { loadQuotableItems } from "./checkout.queries";
export type { QuotableItem } from "./checkout.queries";
export { ZCreateQuoteRequest, ZQuote } from "./checkout.schema";
export { quoteItems } from "./create-quote";
export { insertCheckout } from "./create-session";
export { expireCheckout } from "./expire-checkout-job";
export { completeCheckoutIntent } from "./hosted/complete-intent";
export type { PayOutcome } from "./hosted/page.schema";
export { checkoutPageRouter } from "./hosted/procedures";
export { settleOpenIntents } from "./hosted/settle-open-intents";
export type { CheckoutPageView } from "./hosted/view";
export { newOrderNumber, writeStoreOrders } from "./store-orders";
export { findOwnCheckout, ownerFilter } from "./ownership";
export { checkoutRouter } from "./procedures";
export { buildQuoteLines } from "./quote-lines";
export { oneLineSnapshot, snapshotTotals } from "./quote-snapshot";
export type { QuoteSnapshot } from "./quote-snapshot";
export { reserve } from "./reservations";
export {
  ZCheckout,
  ZCheckoutDetail,
  ZCheckoutIdParams,
  ZCreateCheckoutBody,
  ZIdempotencyHeaders,
  ZIdempotencyKey,
  ZStoreOrder,
} from "./session.schema";
export { checkDueWhere, eachRow, settlePayments } from "./settle-payments";
export { ZQuoteLine, ZTaxLine, ZTotals } from "./checkout.schema";
export { toWireStore, toWireTaxLines } from "./quote-snapshot";
export { ZTracking } from "./session.schema";
