/** The person's orders as the wire shows them, for the list and for one order (rows: checkout's store). */
import { toMoney } from "../core/money";
import type { TaxLine } from "../core/tax";
import { toWireTotals } from "../core/totals";
import { publicPurchaseStatus, type PurchaseState } from "../purchases";
import type { TOrderStatus } from "./orders.schema";
import type { Db } from "../platform/db";
import { listOrderRefunds } from "../refunds";
import { type PersonOrderRow, type QuoteSnapshot, toWireStore, toWireTaxLines } from "../checkout";

type OrderRow = PersonOrderRow & {
  purchase: (PersonOrderRow["purchase"] & { status: PurchaseState }) | null;
};

/**
 * A checkout's orders are paid; a purchase's follow the purchase: held until its card is charged,
 * then paid, or cancelled when the person (or the service) cancelled before the charge, or when the
 * purchase was refused after its hold (the bank's hold lapsed: nothing charged, nothing ships;
 * review L7, where such orders stayed held).
 */
const orderStatus = (order: OrderRow, refundedCents: number): TOrderStatus => {
  // The store cancelled it (refunded in full), or all of it was given back.
  if (order.cancelledAt) return "cancelled";
  if (refundedCents > 0 && refundedCents >= order.grandTotalCents) return "refunded";
  if (!order.purchase) return "paid";
  const status = publicPurchaseStatus(order.purchase.status);
  // A purchase has orders only from its hold on (held, paid, cancelled, refunded, refused).
  if (status === "paid" || status === "refunded" || status === "held") return status;
  return "cancelled";
};

/** One store's order with its items, shipping, tax, totals, refunds and tracking (ZOrder). */
export const toWireOrder = (order: OrderRow, refundedCents = 0) => {
  const owner = (order.checkout ?? order.purchase)!;
  const store = (owner.quote.snapshot as QuoteSnapshot).stores.find(
    (candidate) => candidate.storeId === order.storeId,
  )!;
  const wire = toWireStore(store, { [store.slug]: order.shippingKey });
  return {
    order_number: order.number,
    checkout_order_number: owner.orderNumber!,
    purchase_id: order.purchase?.id ?? null,
    placed_at: order.createdAt.toISOString(),
    status: orderStatus(order, refundedCents),
    fulfilment: order.fulfilment,
    store: wire.store,
    items: wire.items,
    shipping: {
      key: order.shippingKey,
      label: order.shippingLabel,
      amount: toMoney(order.shippingCents),
    },
    tax_lines: toWireTaxLines(order.taxLines as unknown as TaxLine[]),
    totals: toWireTotals(order),
    refunded: toMoney(refundedCents),
    tracking:
      order.trackingNumber && order.carrier && order.shippedAt
        ? {
            carrier: order.carrier,
            tracking_number: order.trackingNumber,
            shipped_at: order.shippedAt.toISOString(),
          }
        : null,
  };
};

/** What was refunded of each order (refunds that went through). */
export const refundedByOrder = async (db: Db, orderIds: string[]) => {
  const refunded = new Map<string, number>();
  if (!orderIds.length) return refunded;
  for (const refund of await listOrderRefunds(db, orderIds))
    refunded.set(refund.orderId, (refunded.get(refund.orderId) ?? 0) + refund.amountCents);
  return refunded;
};
