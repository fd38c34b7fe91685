/**
 * GET /me/orders: the linked person's orders, newest first, each store's order with its items,
 * totals, fulfilment and tracking. Needs orders:read on a token the person granted; a partner's
 * client-credentials token never has a person (403).
 */
import { toMoney } from "../../domain/money";
import { toWireTotals } from "../../domain/totals";
import { AppError } from "../../errors";
import { scopeOf } from "../../api/operations";
import { scopedProcedure } from "../../trpc/procedures";
import type { TaxLine } from "../../domain/tax";
import { type QuoteSnapshot, toWireStore, toWireTaxLines } from "../checkout/quote-snapshot";
import { ZListMyOrdersRequest, ZListMyOrdersResponse } from "./orders.schema";

export const listMyOrders = scopedProcedure(scopeOf("GET /api/v1/me/orders"))
  .input(ZListMyOrdersRequest)
  .output(ZListMyOrdersResponse)
  .query(async ({ ctx, input }) => {
    const personId = ctx.actor.kind === "client" ? ctx.actor.personId : undefined;
    if (!personId) throw new AppError("insufficient_scope", { message: "This operation needs a token a person granted by linking their account." });
    const where = { personId };
    const [total, orders] = await Promise.all([
      ctx.db.order.count({ where }),
      ctx.db.order.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: (input.page - 1) * input.per_page,
        take: input.per_page,
        include: { checkout: { select: { orderNumber: true, quote: { select: { snapshot: true } } } } },
      }),
    ]);
    return {
      data: orders.map((order) => {
        const store = (order.checkout.quote.snapshot as unknown as QuoteSnapshot).stores.find((candidate) => candidate.storeId === order.storeId)!;
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
      }),
      pagination: { page: input.page, per_page: input.per_page, total, last_page: Math.max(1, Math.ceil(total / input.per_page)) },
    };
  });
