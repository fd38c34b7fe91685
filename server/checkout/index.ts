/** What other capabilities and the edges may use of checkout: everything else in the folder is its own. */
export { closeCheckout, expireDueCheckouts } from "./checkout-transitions";
export { checkoutUrl, toWireCheckout } from "./checkout-view";
export { loadQuotableItems } from "../catalogue";
export type { QuotableItem } from "../catalogue";
export { ZCreateQuoteRequest, ZQuote, ZUnavailableItem } from "./checkout.schema";
export type { TShippingAddress } from "./checkout.schema";
export { priceItems, quoteItems } from "./create-quote";
export { insertCheckout } from "./create-session";
export { expireCheckout } from "./expire-checkout-job";
export { completeCheckoutIntent } from "./hosted/complete-intent";
export type { PayOutcome } from "./hosted/page.schema";
export { checkoutPageRouter } from "./hosted/procedures";
export { settleOpenIntents } from "./hosted/settle-open-intents";
export type { CheckoutPageView } from "./hosted/view";
export { newOrderNumber, writeStoreOrders } from "./store-orders";
export { orderSummary } from "./order-summary";
export { orderEmailReader } from "./email-reader";
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
export { settlePayments } from "./settle-payments";
export { ZQuoteLine, ZTaxLine, ZTotals } from "./checkout.schema";
export { toWireStore, toWireTaxLines } from "./quote-snapshot";
export { ZTracking } from "./session.schema";
// The checkout store's functions other capabilities call (ADR 0103): the person's orders (orders),
// shipping an order and bringing a checkout's expiry forward (sandbox), writing a quote (ops).
export { countPersonOrders, findPersonOrder, listPersonOrders } from "./store/orders";
export type { PersonOrderRow } from "./store/orders";
export { insertQuote } from "./store/quotes";
