/**
 * The one writer of store orders. A checkout's orders are placed when the person pays it
 * (server/routers/checkout-page/place-orders.ts); an assistant purchase's when the bank holds its card
 * (server/purchases/purchase-writer.ts). Either way: one order per store of the quote, from the quote
 * snapshot and the chosen shipping (the store's default when none was chosen), numbered after the
 * owner's order number and the store's position (`SO-7K3M9QX2-1`).
 */
import { randomBytes } from "node:crypto";
import type { Prisma } from "../generated/prisma/client";
import type { Tx } from "../db";
import { chosenOption, type QuoteSnapshot, type Selections } from "../routers/checkout/quote-snapshot";

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** SO- and 8 Crockford base-32 characters (40 random bits; the unique index catches the rare clash). */
export const newOrderNumber = () => `SO-${[...randomBytes(8)].map((byte) => crockford[byte % 32]).join("")}`;

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

/** Writes the orders and returns each store with its chosen option and order number (for the confirmation email). */
export const writeStoreOrders = async (tx: Pick<Tx, "order">, input: StoreOrdersInput) => {
  const orders = input.snapshot.stores.map((store, index) => ({ store, option: chosenOption(store, input.selections), number: `${input.orderNumber}-${index + 1}` }));
  await tx.order.createMany({
    data: orders.map(({ store, option, number }) => ({
      id: `ord_${randomBytes(12).toString("hex")}`, number, ...input.owner, storeId: store.storeId, personId: input.personId, email: input.email,
      shippingKey: option.key, shippingLabel: option.label, ...option.totals, taxLines: option.taxLines as unknown as Prisma.InputJsonValue, createdAt: input.now,
    })),
  });
  return orders;
};
