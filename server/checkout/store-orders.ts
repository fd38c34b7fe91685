/**
 * The one writer of store orders. A checkout's orders are placed when the person pays it
 * (server/checkout/hosted/place-orders.ts); an assistant purchase's when the bank holds its card
 * (server/purchases/purchase-writer.ts). Either way: one order per store of the quote, from the quote
 * snapshot and the chosen shipping (the store's default when none was chosen), numbered after the
 * owner's order number and the store's position (`SO-7K3M9QX2-1`).
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "../platform/sql";
import { chosenOption, type QuoteSnapshot, type Selections } from "./quote-snapshot";
import { insertOrders, type NewOrderRow } from "./store/orders";

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** SO- and 8 Crockford base-32 characters (40 random bits; the unique index catches the rare clash). */
export const newOrderNumber = () =>
  `SO-${[...randomBytes(8)].map((byte) => crockford[byte % 32]).join("")}`;

/** The order number of the store at `index` of the owner's stores: `SO-7K3M9QX2-1` for the first. */
export const storeOrderNumber = (orderNumber: string, index: number) =>
  `${orderNumber}-${index + 1}`;

export type StoreOrdersInput = {
  /** Exactly one owner (trigger orders_one_owner). */
  owner: { checkoutId: string } | { purchaseId: string };
  snapshot: QuoteSnapshot;
  selections: Selections;
  /** The account the orders appear under in /me/orders (null: a guest's checkout). */
  personId: string | null;
  email: string;
  orderNumber: string;
  now: Date;
};

/** Writes the orders and returns each store with its chosen option and order number (for the confirmation email). Raw SQL (`Sql`), so it runs in any transaction. */
export const writeStoreOrders = async (tx: Sql, input: StoreOrdersInput) => {
  const orders = input.snapshot.stores.map((store, index) => ({
    store,
    option: chosenOption(store, input.selections),
    number: storeOrderNumber(input.orderNumber, index),
  }));
  const { checkoutId = null, purchaseId = null } = input.owner as {
    checkoutId?: string;
    purchaseId?: string;
  };
  const rows: NewOrderRow[] = orders.map(({ store, option, number }) => ({
    id: `ord_${randomBytes(12).toString("hex")}`,
    number,
    store_id: store.storeId,
    shipping_key: option.key,
    shipping_label: option.label,
    subtotal_cents: option.totals.subtotalCents,
    discount_cents: option.totals.discountCents,
    shipping_cents: option.totals.shippingCents,
    tax_cents: option.totals.taxCents,
    grand_total_cents: option.totals.grandTotalCents,
    tax_lines: option.taxLines,
  }));
  await insertOrders(tx, {
    checkoutId,
    purchaseId,
    personId: input.personId,
    email: input.email,
    now: input.now,
    rows,
  });
  return orders;
};
