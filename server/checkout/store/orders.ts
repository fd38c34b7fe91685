/**
 * Checkout store: store orders (the `orders` table). Checkout owns it: its one writer,
 * writeStoreOrders (server/checkout/store-orders.ts), places a checkout's orders and, through
 * checkout's index, an assistant purchase's; the orders capability (GET /me/orders) and the
 * sandbox read and ship them through the functions here. The insert is raw (typed `Sql`) so it runs
 * in POST /purchases' `pg` transaction and in the hosted page's Prisma one (ADR 0014); the reads
 * are Prisma.
 */
import type { Prisma } from "../../generated/prisma/client";
import type { Db, Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";

export type NewOrderRow = {
  id: string;
  number: string;
  store_id: number;
  shipping_key: string;
  shipping_label: string;
  subtotal_cents: number;
  discount_cents: number;
  shipping_cents: number;
  tax_cents: number;
  grand_total_cents: number;
  tax_lines: unknown;
};

/** Writes one order per row for its one owner (trigger orders_one_owner), in one statement. */
export const insertOrders = (
  sql: Sql,
  input: {
    checkoutId: string | null;
    purchaseId: string | null;
    personId: string | null;
    email: string;
    now: Date;
    rows: readonly NewOrderRow[];
  },
) =>
  sql.$executeRaw`
    INSERT INTO orders (id, number, checkout_id, purchase_id, store_id, person_id, email, shipping_key, shipping_label,
      subtotal_cents, discount_cents, shipping_cents, tax_cents, grand_total_cents, tax_lines, created_at)
    SELECT r.id, r.number, ${input.checkoutId}, ${input.purchaseId}, r.store_id, ${input.personId}, ${input.email}, r.shipping_key, r.shipping_label,
      r.subtotal_cents, r.discount_cents, r.shipping_cents, r.tax_cents, r.grand_total_cents, r.tax_lines, ${input.now}
    FROM jsonb_to_recordset(${JSON.stringify(input.rows)}::jsonb) AS r(id text, number text, store_id int, shipping_key text, shipping_label text,
      subtotal_cents int, discount_cents int, shipping_cents int, tax_cents int, grand_total_cents int, tax_lines jsonb)`;

const orderSummarySelect = {
  storeId: true,
  number: true,
  fulfilment: true,
  carrier: true,
  trackingNumber: true,
  shippedAt: true,
} as const;

/** A paid checkout's orders, each store's number, fulfilment and tracking. */
export const ordersOfCheckout = (db: Db | Tx, checkoutId: string) =>
  db.order.findMany({ where: { checkoutId }, select: orderSummarySelect });

/**
 * What every read of a person's orders loads with the order row: its owner, a paid checkout or an
 * assistant purchase, with the quote snapshot the order was priced from. The purchase is the
 * purchases capability's row, read here until its store offers it (ADR 0103, "Still crossing").
 */
const orderInclude = {
  checkout: { select: { orderNumber: true, quote: { select: { snapshot: true } } } },
  purchase: {
    select: { id: true, orderNumber: true, status: true, quote: { select: { snapshot: true } } },
  },
} as const;

export type PersonOrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

/** How many orders appear under the person's account. */
export const countPersonOrders = (db: Db, personId: string) =>
  db.order.count({ where: { personId } });

/** A page of the person's orders, newest first. */
export const listPersonOrders = (
  db: Db,
  options: { personId: string; skip: number; take: number },
): Promise<PersonOrderRow[]> =>
  db.order.findMany({
    where: { personId: options.personId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: options.skip,
    take: options.take,
    include: orderInclude,
  });

/** One of the person's orders by its number (null when not theirs, or none). */
export const findPersonOrder = (
  db: Db,
  options: { personId: string; number: string },
): Promise<PersonOrderRow | null> =>
  db.order.findFirst({
    where: { personId: options.personId, number: options.number },
    include: orderInclude,
  });
