/** The person's orders as the wire shows them: one reader for the list and for one order. */
import type { Db } from "../../db";
import { toMoney } from "../../domain/money";
import type { TaxLine } from "../../domain/tax";
import { toWireTotals } from "../../domain/totals";
import { type QuoteSnapshot, toWireStore, toWireTaxLines } from "../checkout/quote-snapshot";

/** What every order read loads with the order row. */
export const orderInclude = { checkout: { select: { orderNumber: true, quote: { select: { snapshot: true } } } } } as const;

type OrderRow = NonNullable<Awaited<ReturnType<Db["order"]["findFirst"]>>> & {
  checkout: { orderNumber: string | null; quote: { snapshot: unknown } };
};

/** One store's order with its items, shipping, tax, totals and tracking (ZOrder). */
export const toWireOrder = (order: OrderRow) => {
  const store = (order.checkout.quote.snapshot as QuoteSnapshot).stores.find((candidate) => candidate.storeId === order.storeId)!;
  const wire = toWireStore(store, { [store.slug]: order.shippingKey });
  return {
    order_number: order.number,
    checkout_order_number: order.checkout.orderNumber!,
    placed_at: order.createdAt.toISOString(),
    status: "paid" as const,
    fulfilment: order.fulfilment,
    store: wire.store,
    items: wire.items,
    shipping: { key: order.shippingKey, label: order.shippingLabel, amount: toMoney(order.shippingCents) },
    tax_lines: toWireTaxLines(order.taxLines as unknown as TaxLine[]),
    totals: toWireTotals(order),
    tracking: order.trackingNumber && order.carrier && order.shippedAt ? { carrier: order.carrier, tracking_number: order.trackingNumber, shipped_at: order.shippedAt.toISOString() } : null,
  };
};

