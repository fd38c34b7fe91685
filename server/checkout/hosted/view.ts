/**
 * What the hosted page shows, all from the checkout row and its quote snapshot (never priced
 * again): what is bought (the OrderSummary every shopper page shows: items by store with pictures,
 * size and condition, tax lines, totals, the address, and once paid the order numbers), each
 * store's shipping options in cents, and the zone of the ship-to province that the page's times
 * are in. Also whether an authentication step is open. The page formats it in the reader's language.
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
import { addressLines, orderSummary } from "../order-summary";
import { timeZoneOfProvince } from "../../core/locale";

export const view = publicProcedure.input(ZCheckoutRef).query(async ({ ctx, input }) => {
  const checkout = await findCheckoutForPage(ctx.db, input.id);
  if (!checkout) throw new AppError("not_found", { message: "This checkout link is not valid." });
  const [orders, pending] = await Promise.all([
    checkout.status === "paid" ? ordersOfCheckout(ctx.db, checkout.id) : [],
    findAttemptAwaitingPerson(ctx.db, checkout.id),
  ]);
  const snapshot = checkout.quote.snapshot as unknown as QuoteSnapshot;
  const selections = checkout.selections as Selections;
  const address = checkout.quote.address as TShippingAddress;
  return {
    id: checkout.id,
    status: checkout.status,
    expiresAt: checkout.expiresAt.toISOString(),
    email: checkout.email,
    name: [checkout.firstName, checkout.lastName].filter(Boolean).join(" ") || null,
    shipTo: addressLines(address),
    timeZone: timeZoneOfProvince(address.province),
    summary: orderSummary({ snapshot, selections, address, orderNumber: checkout.orderNumber }),
    shippingChoices: snapshot.stores.map((store) => ({
      slug: store.slug,
      options: store.parcel.options.map((option) => ({
        key: option.key,
        label: option.label,
        cents: option.amountCents,
        isFree: option.isFree,
        earliest: option.delivery.earliest,
        latest: option.delivery.latest,
      })),
      selected: (selections[store.slug] ?? store.parcel.defaultOptionKey) as string,
      freeShippingRemainingCents:
        store.parcel.freeShipping && !store.parcel.freeShipping.qualifies
          ? store.parcel.freeShipping.remainingCents
          : null,
    })),
    totalsCents: {
      items: checkout.subtotalCents,
      discount: checkout.discountCents,
      shipping: checkout.shippingCents,
      tax: checkout.taxCents,
      total: checkout.grandTotalCents,
    },
    orderNumber: checkout.orderNumber,
    closedReason: checkout.closedReason,
    stores: snapshot.stores.map((store) => ({
      ...toWireStore(store, selections),
      orderNumber: orders.find((order) => order.storeId === store.storeId)?.number ?? null,
    })),
    totals: toWireTotals(checkout),
    pendingPaymentId: checkout.status === "awaiting_payment" ? (pending?.id ?? null) : null,
  };
});

export type CheckoutPageView = Awaited<ReturnType<typeof view>>;
