/**
 * What the hosted page shows, all from the checkout row and its quote snapshot (never priced
 * again): items by store with images, the address, each store's options with the totals they give,
 * tax lines, totals, and once paid the order numbers. Also whether an authentication step is open.
 */
import { toWireTotals } from "../../core/totals";
import { AppError } from "../../core/errors";
import { publicProcedure } from "../../platform/trpc/procedures";
import type { TShippingAddress } from "../checkout.schema";
import { type QuoteSnapshot, type Selections, toWireStore } from "../quote-snapshot";
import { findAttemptAwaitingPerson } from "../store/borrowed";
import { findCheckoutForPage } from "../store/checkouts";
import { ordersOfCheckout } from "../store/orders";
import { ZCheckoutRef } from "./page.schema";
import { addressLines } from "../order-summary";

export const view = publicProcedure.input(ZCheckoutRef).query(async ({ ctx, input }) => {
  const checkout = await findCheckoutForPage(ctx.db, input.id);
  if (!checkout) throw new AppError("not_found", { message: "This checkout link is not valid." });
  const [orders, pending] = await Promise.all([
    checkout.status === "paid" ? ordersOfCheckout(ctx.db, checkout.id) : [],
    findAttemptAwaitingPerson(ctx.db, checkout.id),
  ]);
  const snapshot = checkout.quote.snapshot as unknown as QuoteSnapshot;
  return {
    id: checkout.id,
    status: checkout.status,
    expiresAt: checkout.expiresAt.toISOString(),
    email: checkout.email,
    name: [checkout.firstName, checkout.lastName].filter(Boolean).join(" ") || null,
    shipTo: addressLines(checkout.quote.address as TShippingAddress),
    orderNumber: checkout.orderNumber,
    closedReason: checkout.closedReason,
    stores: snapshot.stores.map((store) => ({
      ...toWireStore(store, checkout.selections as Selections),
      orderNumber: orders.find((order) => order.storeId === store.storeId)?.number ?? null,
    })),
    totals: toWireTotals(checkout),
    pendingPaymentId: checkout.status === "awaiting_payment" ? (pending?.id ?? null) : null,
  };
});

export type CheckoutPageView = Awaited<ReturnType<typeof view>>;
