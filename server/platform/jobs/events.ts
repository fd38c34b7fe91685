/** Event names and payloads, and the senders the routers call after their transaction commits. */
import { z } from "zod";
import { inngest, isInngestConfigured } from "./client";
import { logger } from "../observability/log";

export const checkoutCreatedEvent = "shopping/checkout.created";
export const checkoutClosedEvent = "shopping/checkout.closed";

export const ZCheckoutEvent = z.object({ checkout_id: z.string().startsWith("chk_") });

/**
 * Fire and forget: a lost event only means the sweep expires the checkout (or charges the purchase)
 * instead of the sleeping function. The event id is the business key, so a retried send runs one function.
 */
const send = (
  name: string,
  id: string,
  data:
    | z.input<typeof ZCheckoutEvent>
    | z.input<typeof ZPurchaseEvent>
    | z.input<typeof ZPriceChangedEvent>
    | z.input<typeof ZPriceWatchEvent>,
) => {
  if (!isInngestConfigured()) return;
  inngest
    .send({ name, id, data })
    .catch((error: unknown) =>
      logger.warn({ event: name, error: (error as Error).message }, "inngest event not sent"),
    );
};

export const notifyCheckoutCreated = (checkoutId: string) =>
  send(checkoutCreatedEvent, `checkout-created-${checkoutId}`, { checkout_id: checkoutId });

export const notifyCheckoutClosed = (checkoutId: string) =>
  send(checkoutClosedEvent, `checkout-closed-${checkoutId}`, { checkout_id: checkoutId });

export const purchaseHeldEvent = "shopping/purchase.held";
export const purchaseCancelledEvent = "shopping/purchase.cancelled";

export const ZPurchaseEvent = z.object({ purchase_id: z.string().startsWith("pur_") });

export const notifyPurchaseHeld = (purchaseId: string) =>
  send(purchaseHeldEvent, `purchase-held-${purchaseId}`, { purchase_id: purchaseId });

export const notifyPurchaseCancelled = (purchaseId: string) =>
  send(purchaseCancelledEvent, `purchase-cancelled-${purchaseId}`, { purchase_id: purchaseId });

export const priceChangedEvent = "shopping/item.price_changed";

/** price_change_events ids written by one change (a store-wide sale writes many in one transaction). */
export const ZPriceChangedEvent = z.object({
  price_change_ids: z.array(z.number().int().positive()).min(1).max(10_000),
});

/** After a price change commits: the Inngest function processes its events at once (the sweep otherwise within a second). */
export const notifyPriceChanged = (eventIds: readonly number[]) => {
  if (eventIds.length === 0) return;
  send(priceChangedEvent, `price-changed-${eventIds[0]}-${eventIds.length}`, {
    price_change_ids: [...eventIds],
  });
};

export const priceWatchSetEvent = "shopping/price_watch.set";
export const priceWatchClosedEvent = "shopping/price_watch.closed";

export const ZPriceWatchEvent = z.object({ price_watch_id: z.number().int().positive() });

/** After a watch is set: the Inngest function sleeps until its expiry (the sweep expires it otherwise). */
export const notifyPriceWatchSet = (watchId: number) =>
  send(priceWatchSetEvent, `price-watch-set-${watchId}`, { price_watch_id: watchId });

/** After a watch leaves active for good: cancels its sleeping expiry run. */
export const notifyPriceWatchClosed = (watchId: number) =>
  send(priceWatchClosedEvent, `price-watch-closed-${watchId}`, { price_watch_id: watchId });
