/**
 * POST /sandbox/orders/{order}/ship: marks one of the client's store orders (of a paid checkout, or
 * of a charged assistant purchase) shipped with a carrier and tracking number, and emails the
 * tracking to the order's email (outbox, same transaction). Shipping an order again answers it as it
 * is, with no second email. An order its store cancelled (ops order:cancel: refunded in full, the
 * person told it will not ship) is 409 order_cancelled, and nothing is emailed.
 */
import { randomInt } from "node:crypto";
import { publicPurchaseStatus } from "../purchases";
import { AppError } from "../core/errors";
import { inTransaction } from "../platform/db";
import { enqueueEmail } from "../platform/mail/outbox";
import { procedure } from "../platform/trpc/procedures";
import { recordWebhookEvent } from "../partners";
import type { QuoteSnapshot } from "../checkout";
import { orderEmailReader, ZStoreOrder } from "../checkout";
import type { OrderShippedProps } from "../../emails/order-shipped";
import { assertSandbox } from "./sandbox-only";
import { ZShipOrderInput } from "./sandbox.schema";
import { findOwnOrder, isOrderCancelled, markOrderShipped, readOrderTracking } from "./store";

const cancelled = (number: string) =>
  new AppError("order_cancelled", {
    message: `Order ${number} was cancelled by its store and refunded: it does not ship.`,
  });

const trackingNumber = () => Array.from({ length: 16 }, () => randomInt(10)).join("");

export const shipOrder = procedure({ caller: "partner", scope: "checkout:write" })
  .input(ZShipOrderInput)
  .output(ZStoreOrder)
  .mutation(async ({ ctx, input }) => {
    assertSandbox();
    const now = ctx.clock.now();
    const order = await findOwnOrder(ctx.db, { number: input.order, actor: ctx.actor });
    if (!order) throw new AppError("not_found", { message: `No order ${input.order}.` });
    // A store ships a purchase's order once the card is charged: until then the person may still cancel.
    if (order.purchase && order.purchase.status !== "paid") {
      throw new AppError("order_not_paid", {
        message: `Order ${input.order} belongs to a purchase that is ${publicPurchaseStatus(order.purchase.status)}: it ships once the card is charged (POST /sandbox/purchases/${order.purchaseId}/advance).`,
      });
    }
    if (order.cancelledAt) throw cancelled(input.order);
    const owner = (order.checkout ?? order.purchase)!;
    const store = (owner.quote.snapshot as unknown as QuoteSnapshot).stores.find(
      (candidate) => candidate.storeId === order.storeId,
    )!;
    await inTransaction(ctx.db, async (tx) => {
      const carrier = input.carrier ?? "Canada Post";
      const tracking = input.tracking_number ?? trackingNumber();
      const isShipped = await markOrderShipped(tx, {
        id: order.id,
        carrier,
        trackingNumber: tracking,
        now,
      });
      if (!isShipped) {
        // Not shipped now: shipped before (answered as it is), or cancelled since it was read.
        if (await isOrderCancelled(tx, order.id)) throw cancelled(input.order);
        return;
      }
      // In the buyer's language: the one they paid the checkout in, else their person's.
      const props: OrderShippedProps = {
        ...(await orderEmailReader(tx, {
          checkoutId: order.checkoutId,
          personId: owner.personId,
        })),
        orderNumber: input.order,
        storeName: store.name,
        storeUrl: store.url,
        carrier,
        trackingNumber: tracking,
        shippedAt: now.toISOString(),
        items: store.lines.map((line) => ({
          title: line.title,
          size: line.size,
          quantity: line.quantity,
        })),
      };
      await enqueueEmail(tx, {
        to: order.email,
        template: "order-shipped",
        props,
        dedupeKey: `order-shipped:${order.id}`,
      });
      // The order as GET /checkout/sessions/{id} shows it in its store (with tracking), and its checkout or purchase.
      await recordWebhookEvent(tx, {
        type: "order.shipped",
        clientId: owner.clientId,
        personId: owner.personId,
        objectId: input.order,
        now,
        data: () => ({
          checkout_id: order.checkoutId,
          purchase_id: order.purchaseId,
          order_number: input.order,
          fulfilment: "shipped",
          tracking: { carrier, tracking_number: tracking, shipped_at: now.toISOString() },
        }),
      });
    });
    const result = await readOrderTracking(ctx.db, order.id);
    return {
      order_number: result.number,
      fulfilment: result.fulfilment,
      tracking: {
        carrier: result.carrier!,
        tracking_number: result.trackingNumber!,
        shipped_at: result.shippedAt!.toISOString(),
      },
    };
  });
