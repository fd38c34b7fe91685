/** Event names and payloads, and the senders the routers call after their transaction commits. */
import { z } from "zod";
import { inngest, isInngestConfigured } from "./client";

export const checkoutCreatedEvent = "shopping/checkout.created";
export const checkoutClosedEvent = "shopping/checkout.closed";

export const ZCheckoutEvent = z.object({ checkout_id: z.string().startsWith("chk_") });

/**
 * Fire and forget: a lost event only means the sweep expires the checkout (or charges the purchase)
 * instead of the sleeping function. The event id is the business key, so a retried send runs one function.
 */
const send = (name: string, id: string, data: z.input<typeof ZCheckoutEvent> | z.input<typeof ZPurchaseEvent>) => {
  if (!isInngestConfigured()) return;
  inngest.send({ name, id, data }).catch((error: unknown) => console.warn(`[inngest] ${name} not sent`, (error as Error).message));
};

export const notifyCheckoutCreated = (checkoutId: string) => send(checkoutCreatedEvent, `checkout-created-${checkoutId}`, { checkout_id: checkoutId });

export const notifyCheckoutClosed = (checkoutId: string) => send(checkoutClosedEvent, `checkout-closed-${checkoutId}`, { checkout_id: checkoutId });

export const purchaseHeldEvent = "shopping/purchase.held";
export const purchaseCancelledEvent = "shopping/purchase.cancelled";

export const ZPurchaseEvent = z.object({ purchase_id: z.string().startsWith("pur_") });

export const notifyPurchaseHeld = (purchaseId: string) => send(purchaseHeldEvent, `purchase-held-${purchaseId}`, { purchase_id: purchaseId });

export const notifyPurchaseCancelled = (purchaseId: string) => send(purchaseCancelledEvent, `purchase-cancelled-${purchaseId}`, { purchase_id: purchaseId });
