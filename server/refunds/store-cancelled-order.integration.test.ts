/**
 * A store-cancelled order (ops `order:cancel`, refundOrder with source store_cancelled): the person
 * is told the store cancelled it and it will not ship (refund-issued, English and French), and the
 * sandbox's shipping refuses it, 409 order_cancelled, with no "has shipped" email. Before, the
 * email said only "refunded" and POST /sandbox/orders/{order}/ship shipped it and emailed so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { paymentProvider } from "../payments";
import { payCheckout } from "../testing/paid-orders";
import { operationHandler } from "../edges/rest/rest-router";
import { callRoute } from "../testing/rest";
import { renderEmail } from "../../emails/render";
import { refundOrder } from "./refund-order";

const shipRoute = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");
let token: string;
beforeAll(async () => {
  token = await (await createPartner()).token();
});

const paidOrder = async () => (await payCheckout(token, [await createStore()], [3_000])).orders[0];
const settle = (orderNumber: string, source: "store_cancelled" | "operator") =>
  refundOrder(db(), paymentProvider(), {
    orderNumber,
    reason: "Out of stock at the store",
    source,
    now: new Date(),
  });
const ship = (number: string) =>
  callRoute(shipRoute, {
    path: `/sandbox/orders/${number}/ship`,
    token,
    body: {},
    params: { order: number },
  });
const emailsOf = (template: string, number: string) =>
  db().emailMessage.findMany({
    where: { template, props: { path: ["orderNumber"], equals: number } },
  });

describe("an order the store cancelled", () => {
  it("is refused for shipping: 409 order_cancelled, still processing, no shipped email", async () => {
    const order = await paidOrder();
    await settle(order.number, "store_cancelled");
    const response = await ship(order.number);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.error.code).toBe("order_cancelled");
    expect(body.error.message).toContain(order.number);
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      fulfilment: "processing",
      shippedAt: null,
    });
    expect(await emailsOf("order-shipped", order.number)).toHaveLength(0);
  });

  it("an order refunded without a cancellation still ships", async () => {
    const order = await paidOrder();
    await settle(order.number, "operator");
    expect((await ship(order.number)).status).toBe(200);
  });

  it("its refund email says the store cancelled it and it will not ship, in English and French", async () => {
    const order = await paidOrder();
    await settle(order.number, "store_cancelled");
    const [email] = await emailsOf("refund-issued", order.number);
    const props = email.props as Record<string, unknown>;
    const english = await renderEmail("refund-issued", { ...props, locale: "en-CA" });
    expect(english.subject).toMatch(/cancelled/i);
    expect(english.text).toMatch(/cancelled your order/);
    expect(english.text).toMatch(/will not ship/);
    expect(english.text).toMatch(/Out of stock at the store/);
    const french = await renderEmail("refund-issued", { ...props, locale: "fr-CA" });
    expect(french.subject).toMatch(/annulée/i);
    expect(french.text).toMatch(/a annulé votre commande/);
    expect(french.text).toMatch(/ne sera pas expédiée/);
  });

  it("an operator's refund says refunded, not cancelled", async () => {
    const order = await paidOrder();
    await settle(order.number, "operator");
    const [email] = await emailsOf("refund-issued", order.number);
    const english = await renderEmail("refund-issued", email.props);
    expect(english.subject).not.toMatch(/cancel/i);
    expect(english.text).not.toMatch(/cancel|will not ship/i);
  });
});
