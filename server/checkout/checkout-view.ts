/** Checkout rows to wire shapes: the reference's Checkout, and the detail GET answers. */
import { toWireTotals } from "../core/totals";
import { env } from "../platform/env";
import type { CheckoutRow } from "./store/checkouts";
import type { QuoteSnapshot, Selections } from "./quote-snapshot";
import { toWireStore } from "./quote-snapshot";
import type { TCheckout, TCheckoutDetail } from "./session.schema";

export const checkoutUrl = (id: string) => `${env().PUBLIC_URL}/checkout/${id}`;

type CheckoutCore = Pick<
  CheckoutRow,
  | "id"
  | "status"
  | "expiresAt"
  | "orderNumber"
  | "subtotalCents"
  | "discountCents"
  | "shippingCents"
  | "taxCents"
  | "grandTotalCents"
>;

export const toWireCheckout = (checkout: CheckoutCore): TCheckout => ({
  checkout_id: checkout.id,
  status: checkout.status,
  checkout_url: checkoutUrl(checkout.id),
  expires_at: checkout.expiresAt.toISOString(),
  order_number: checkout.orderNumber,
  totals: toWireTotals(checkout),
});

export type OrderSummary = {
  storeId: number;
  number: string;
  fulfilment: "processing" | "shipped";
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: Date | null;
};

export const toCheckoutDetail = (
  checkout: CheckoutRow,
  orders: readonly OrderSummary[],
): TCheckoutDetail => {
  const snapshot = checkout.quote.snapshot as unknown as QuoteSnapshot;
  const selections = checkout.selections as Selections;
  return {
    ...toWireCheckout(checkout),
    email: checkout.email,
    created_at: checkout.createdAt.toISOString(),
    paid_at: checkout.paidAt?.toISOString() ?? null,
    closed_reason: checkout.closedReason,
    stores: snapshot.stores.map((store) => {
      const wire = toWireStore(store, selections);
      const chosen = wire.shipping_options.find((option) => option.key === wire.selected_shipping)!;
      const order = orders.find((candidate) => candidate.storeId === store.storeId);
      return {
        store: wire.store,
        items: wire.items,
        shipping: { key: chosen.key, label: chosen.label, amount: chosen.amount },
        tax_lines: wire.tax_lines,
        totals: wire.totals,
        order: order
          ? {
              order_number: order.number,
              fulfilment: order.fulfilment,
              tracking:
                order.trackingNumber && order.carrier && order.shippedAt
                  ? {
                      carrier: order.carrier,
                      tracking_number: order.trackingNumber,
                      shipped_at: order.shippedAt.toISOString(),
                    }
                  : null,
            }
          : null,
      };
    }),
  };
};
