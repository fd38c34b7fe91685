/**
 * The event types a partner can subscribe a webhook endpoint to (issue 13). `webhook.test` is sent
 * only by POST /webhook-endpoints/{id}/test, to that endpoint, whatever it subscribed to.
 */
export const webhookEventTypes = [
  "checkout.paid",
  "checkout.expired",
  "checkout.cancelled",
  "order.shipped",
  "order.refunded",
  "order.refund_failed",
  "purchase.held",
  "purchase.paid",
  "purchase.cancelled",
  "purchase.requires_person",
  "purchase.refunded",
  "price_watch.fulfilled",
  "price_watch.ended",
  "price_watch.needs_you",
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export const testEventType = "webhook.test";

/** The checkout status a move ends in, as the event it reports (awaiting_payment reports nothing). */
export const checkoutEventType = (status: string): WebhookEventType | null =>
  status === "paid"
    ? "checkout.paid"
    : status === "expired"
      ? "checkout.expired"
      : status === "cancelled"
        ? "checkout.cancelled"
        : null;

/** The purchase status a move ends in, as the event it reports (processing, capturing and refused report nothing). */
export const purchaseEventType = (status: string): WebhookEventType | null =>
  status === "held"
    ? "purchase.held"
    : status === "paid"
      ? "purchase.paid"
      : status === "cancelled"
        ? "purchase.cancelled"
        : status === "requires_person"
          ? "purchase.requires_person"
          : status === "refunded"
            ? "purchase.refunded"
            : null;

/** The price-watch status a move ends in, as the event it reports (active and executing report nothing). */
export const priceWatchEventType = (status: string): WebhookEventType | null =>
  status === "fulfilled"
    ? "price_watch.fulfilled"
    : status === "needs_you"
      ? "price_watch.needs_you"
      : status === "item_sold" || status === "cancelled" || status === "expired"
        ? "price_watch.ended"
        : null;
