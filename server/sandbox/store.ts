/**
 * The sandbox helpers' test-clock writes and the order they ship. The sandbox has no table of its
 * own: these read and write `checkouts`, `purchases` and `orders`, and are here only until
 * checkout's, purchases' and orders' indexes offer them (`expireCheckoutNow`,
 * `makePurchaseDueNow`, `findOwnOrder`, `markOrderShipped`, `readOrderTracking`), and should move
 * there. Prisma: one sandbox call at a time.
 */
import { ownerFilter } from "../checkout";
import type { Db, Tx } from "../platform/db";
import type { Actor } from "../platform/trpc/context";
import { purchaseOwnerFilter } from "../purchases";

type Client = Db | Tx;

/** Moves an awaiting-payment checkout's due time to now (the expiry then runs as the sweep's). */
export const makeCheckoutDueNow = (db: Client, options: { id: string; now: Date }) =>
  db.checkout.updateMany({
    where: { id: options.id, status: "awaiting_payment", expiresAt: { gt: options.now } },
    data: { expiresAt: options.now },
  });

/** Moves a held purchase's charge time and cancel window to now (the charge then runs as the sweep's). */
export const makePurchaseDueNow = (db: Client, options: { id: string; now: Date }) =>
  db.purchase.updateMany({
    where: { id: options.id, status: "held", chargesAt: { gt: options.now } },
    data: { chargesAt: options.now, cancelUntil: options.now },
  });

/** One of the actor's store orders (of its checkout or of its purchase) by number, with what shipping it needs; null otherwise. */
export const findOwnOrder = (db: Client, options: { number: string; actor: Actor }) =>
  db.order.findFirst({
    where: {
      number: options.number,
      OR: [
        { checkout: { is: ownerFilter(options.actor) } },
        { purchase: { is: purchaseOwnerFilter(options.actor) } },
      ],
    },
    select: {
      id: true,
      storeId: true,
      email: true,
      cancelledAt: true,
      checkoutId: true,
      purchaseId: true,
      checkout: {
        select: { clientId: true, personId: true, quote: { select: { snapshot: true } } },
      },
      purchase: {
        select: {
          clientId: true,
          personId: true,
          status: true,
          quote: { select: { snapshot: true } },
        },
      },
    },
  });

/** Marks a processing order shipped; false when it already was. */
export const markOrderShipped = async (
  db: Client,
  options: { id: string; carrier: string; trackingNumber: string; now: Date },
) =>
  (
    await db.order.updateMany({
      // Never an order its store cancelled, even one cancelled after the caller read it.
      where: { id: options.id, fulfilment: "processing", cancelledAt: null },
      data: {
        fulfilment: "shipped",
        carrier: options.carrier,
        trackingNumber: options.trackingNumber,
        shippedAt: options.now,
      },
    })
  ).count === 1;

/** Whether the order's store cancelled it (orders.cancelled_at, written by the refunds' cancellation). */
export const isOrderCancelled = async (db: Client, id: string) =>
  (await db.order.findUniqueOrThrow({ where: { id }, select: { cancelledAt: true } }))
    .cancelledAt !== null;

/** An order's number, fulfilment and tracking; throws when unknown. */
export const readOrderTracking = (db: Client, id: string) =>
  db.order.findUniqueOrThrow({
    where: { id },
    select: {
      number: true,
      fulfilment: true,
      carrier: true,
      trackingNumber: true,
      shippedAt: true,
    },
  });
