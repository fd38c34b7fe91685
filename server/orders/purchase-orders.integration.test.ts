/**
 * An assistant purchase places its store orders when the bank holds the card (the reference: "order
 * placed"): the linked person sees them in GET /me/orders (held, then paid, or cancelled), the store
 * ships them only once the card is charged, and the Purchase's fulfilment follows its orders.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { testCards } from "../payments/sandbox-cards";
import { cancelPurchase } from "../purchases/cancel-purchase";
import { chargeDuePurchase } from "../purchases/charge-purchase";
import { agentWithPerson, buy, directItem, getPurchase, quoteOf } from "../testing/agent-purchases";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const myOrders = operationHandler("GET /api/v1/me/orders");
const myOrder = operationHandler("GET /api/v1/me/orders/{order_number}");
const shipRoute = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");
const advanceRoute = operationHandler("POST /api/v1/sandbox/purchases/{purchase_id}/advance");

const scope = "catalog:read checkout:write address:read purchase:write orders:read";
const listOrders = async (token: string) =>
  (await callRoute(myOrders, { path: "/me/orders", token })).json();
const readOrder = async (token: string, number: string) => {
  const response = await callRoute(myOrder, {
    path: `/me/orders/${number}`,
    token,
    params: { order_number: number },
  });
  return { status: response.status, body: await response.json() };
};
const ship = (token: string, number: string) =>
  callRoute(shipRoute, {
    path: `/sandbox/orders/${number}/ship`,
    token,
    params: { order: number },
    method: "POST",
  });
const advance = (token: string, id: string) =>
  callRoute(advanceRoute, {
    path: `/sandbox/purchases/${id}/advance`,
    token,
    params: { purchase_id: id },
    method: "POST",
  });

describe("store orders of an assistant purchase", () => {
  it("a held purchase of two stores places two orders, listed held in /me/orders with the purchase's id, number and total", async () => {
    const { token } = await agentWithPerson({ scope });
    const first = await directItem(2500);
    const second = await directItem(4000);
    const quote = await quoteOf(token, [first.id, second.id]);
    const made = await buy(token, quote.quote_id);
    expect(made.status).toBe(201);
    const { data } = await listOrders(token);
    expect(data).toHaveLength(2);
    const numbers = data.map((order: { order_number: string }) => order.order_number).sort();
    expect(numbers).toEqual([`${made.body.order_number}-1`, `${made.body.order_number}-2`]);
    for (const order of data) {
      expect(order).toMatchObject({
        status: "held",
        purchase_id: made.body.purchase_id,
        checkout_order_number: made.body.order_number,
        fulfilment: "processing",
        tracking: null,
      });
    }
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    const sum = data.reduce(
      (total: number, order: { totals: { grand_total: { amount: string } } }) =>
        total + cents(order.totals.grand_total.amount),
      0,
    );
    expect(sum).toBe(cents(made.body.totals.grand_total.amount));
    expect((await readOrder(token, numbers[0])).body).toMatchObject({
      order_number: numbers[0],
      status: "held",
    });
  });

  it("ships only once charged: held is 409 order_not_paid; after the charge it ships, and the purchase reads shipped", async () => {
    const { token, person } = await agentWithPerson({ scope });
    const made = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    const number = `${made.body.order_number}-1`;
    const early = await ship(token, number);
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe("order_not_paid");
    expect((await advance(token, made.body.purchase_id)).status).toBe(200);
    expect((await readOrder(token, number)).body).toMatchObject({
      status: "paid",
      fulfilment: "processing",
    });
    const shipped = await ship(token, number);
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toMatchObject({ order_number: number, fulfilment: "shipped" });
    expect((await readOrder(token, number)).body.tracking).toMatchObject({
      carrier: "Canada Post",
    });
    expect((await getPurchase(token, made.body.purchase_id)).body).toMatchObject({
      status: "paid",
      fulfilment: "shipped",
    });
    expect(
      await db().emailMessage.count({ where: { to: person.email, template: "order-shipped" } }),
    ).toBe(1);
  });

  it("a cancelled purchase's order stays listed as cancelled and cannot ship; a declined purchase places none", async () => {
    const { token } = await agentWithPerson({ scope });
    const made = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    await cancelPurchase(db(), sandboxProvider(), {
      id: made.body.purchase_id,
      now: new Date(),
      by: "person",
    });
    expect((await listOrders(token)).data).toEqual([
      expect.objectContaining({ status: "cancelled", purchase_id: made.body.purchase_id }),
    ]);
    expect((await ship(token, `${made.body.order_number}-1`)).status).toBe(409);

    const declined = await agentWithPerson({ scope, card: testCards.declined });
    const refused = await buy(
      declined.token,
      (await quoteOf(declined.token, [(await directItem()).id])).quote_id,
    );
    expect(refused.status).toBe(402);
    expect((await listOrders(declined.token)).data).toEqual([]);
    expect(await db().order.count({ where: { purchaseId: refused.body.purchase_id } })).toBe(0);
  });

  it("a purchase refused after its hold (the bank's hold lapsed before the charge): its order is listed cancelled, not held, and cannot ship (L7)", async () => {
    const { token } = await agentWithPerson({ scope });
    const made = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    const id = made.body.purchase_id;
    await db().purchase.update({ where: { id }, data: { chargesAt: new Date(Date.now() - 1000) } });
    const payment = await db().payment.findUniqueOrThrow({ where: { purchaseId: id } });
    await sandboxProvider().release({
      idempotencyKey: `lapse-${id}`,
      paymentId: payment.processorPaymentId!,
    });
    expect(
      await chargeDuePurchase(db(), id, { now: new Date(), provider: sandboxProvider() }),
    ).toMatchObject({ outcome: "refused" });
    expect((await listOrders(token)).data).toEqual([
      expect.objectContaining({ status: "cancelled", purchase_id: id }),
    ]);
    expect((await readOrder(token, `${made.body.order_number}-1`)).body).toMatchObject({
      status: "cancelled",
    });
    expect((await ship(token, `${made.body.order_number}-1`)).status).toBe(409);
  });

  it("another person sees none of them and cannot ship them (404); an order has exactly one owner", async () => {
    const { token } = await agentWithPerson({ scope });
    const made = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    const number = `${made.body.order_number}-1`;
    const other = await agentWithPerson({ scope });
    expect((await listOrders(other.token)).data).toEqual([]);
    expect((await readOrder(other.token, number)).status).toBe(404);
    expect((await ship(other.token, number)).status).toBe(404);
    const order = await db().order.findUniqueOrThrow({ where: { number } });
    await expect(
      db().order.update({ where: { id: order.id }, data: { purchaseId: null } }),
    ).rejects.toThrow(/exactly one checkout or purchase/);
  });
});
