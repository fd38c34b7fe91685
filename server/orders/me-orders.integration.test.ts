/**
 * GET /me/orders and the sandbox helpers through the REST handlers: a linked person's paid checkout
 * joins their account only with their email; a client-credentials token is 403; a person sees only
 * their own orders, paginated; shipping adds tracking and emails it; expire frees the items.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createLinkedPerson, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { testCards } from "../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { pageCaller } from "../testing/page-caller";
import { callRoute } from "../testing/rest";
import { operationHandler } from "@/server/edges/rest/rest-router";

const myOrders = operationHandler("GET /api/v1/me/orders");
const expireRoute = operationHandler("POST /api/v1/sandbox/checkouts/{checkout_id}/expire");
const shipRoute = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");

let storeId: number;
beforeAll(async () => {
  storeId = (await createStore()).id;
});

/** Quote, checkout and pay with the success card; returns the checkout's order number. */
const buy = async (token: string, email: string) => {
  const item = await createItem({ storeId, priceCents: 2000 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, { quote_id: quote.body.quote_id, email });
  const id = JSON.parse(text).checkout_id;
  const paid = await pageCaller().checkoutPage.pay({
    id,
    accept_terms: true,
    method: { type: "card", number: testCards.succeeds, exp_month: 1, exp_year: 2040, cvc: "123" },
  });
  return { id, orderNumber: (paid as { orderNumber: string }).orderNumber };
};

const listOrders = (token: string, query = "") =>
  callRoute(myOrders, { path: `/me/orders${query}`, token });

describe("GET /me/orders", () => {
  it("lists the person's paid checkouts made with their token and their email, newest first, paginated", async () => {
    const { person, token } = await createLinkedPerson();
    const first = await buy(token, person.email.toUpperCase());
    const second = await buy(token, person.email);
    await buy(token, "someone-else@example.ca"); // same token, another email: not joined
    const response = await listOrders(token, "?per_page=1");
    expect(response.status).toBe(200);
    const page1 = await response.json();
    expect(page1.pagination).toEqual({ page: 1, per_page: 1, total: 2, last_page: 2 });
    expect(page1.data[0]).toMatchObject({
      order_number: `${second.orderNumber}-1`,
      checkout_order_number: second.orderNumber,
      status: "paid",
      fulfilment: "processing",
      tracking: null,
    });
    expect(page1.data[0].items[0]).toMatchObject({
      unit_price: { amount: "20.00", currency: "CAD" },
    });
    expect(page1.data[0].totals.grand_total.amount).toBe("33.84"); // 20.00 + 9.95 + HST 3.89 (13% of 29.95 = 3.8935)
    const page2 = await (await listOrders(token, "?per_page=1&page=2")).json();
    expect(page2.data[0].checkout_order_number).toBe(first.orderNumber);
  });

  it("another person sees none of them; a client-credentials token is 403; bad paging is 422", async () => {
    const { person, token } = await createLinkedPerson();
    await buy(token, person.email);
    const other = await createLinkedPerson();
    expect((await (await listOrders(other.token)).json()).data).toEqual([]);
    const partner = await createPartner();
    const clientToken = await partner.token();
    expect((await listOrders(clientToken)).status).toBe(403);
    expect((await listOrders(token, "?per_page=51")).status).toBe(422);
  });

  it("shows tracking once the sandbox ships the order, which emails the tracking once", async () => {
    const { person, token } = await createLinkedPerson();
    const { orderNumber } = await buy(token, person.email);
    const ship = () =>
      callRoute(shipRoute, {
        path: `/sandbox/orders/${orderNumber}-1/ship`,
        token,
        body: { carrier: "Purolator" },
        params: { order: `${orderNumber}-1` },
      });
    const shipped = await ship();
    expect(shipped.status).toBe(200);
    const body = await shipped.json();
    expect(body).toMatchObject({
      order_number: `${orderNumber}-1`,
      fulfilment: "shipped",
      tracking: { carrier: "Purolator", tracking_number: expect.stringMatching(/^\d{16}$/) },
    });
    expect((await ship()).status).toBe(200);
    expect(
      await db().emailMessage.count({ where: { to: person.email, template: "order-shipped" } }),
    ).toBe(1);
    const listed = await (await listOrders(token)).json();
    expect(listed.data[0].tracking).toEqual(body.tracking);
    const stranger = await (await createPartner()).token();
    expect(
      (
        await callRoute(shipRoute, {
          path: `/sandbox/orders/${orderNumber}-1/ship`,
          token: stranger,
          params: { order: `${orderNumber}-1` },
          method: "POST",
        })
      ).status,
    ).toBe(404);
  });
});

describe("POST /sandbox/checkouts/{id}/expire", () => {
  it("expires the client's checkout now and frees its items; another client gets 404", async () => {
    const token = await (await createPartner()).token();
    const item = await createItem({ storeId });
    const quote = await createQuoteVia(token, [{ item_id: item.id }]);
    const id = JSON.parse(
      (await createCheckoutVia(token, { quote_id: quote.body.quote_id, email: "a@example.ca" }))
        .text,
    ).checkout_id;
    const stranger = await (await createPartner()).token();
    expect(
      (
        await callRoute(expireRoute, {
          method: "POST",
          path: `/sandbox/checkouts/${id}/expire`,
          token: stranger,
          params: { checkout_id: id },
        })
      ).status,
    ).toBe(404);
    const response = await callRoute(expireRoute, {
      method: "POST",
      path: `/sandbox/checkouts/${id}/expire`,
      token,
      params: { checkout_id: id },
    });
    expect(response.status).toBe(200);
    const checkout = await response.json();
    expect(checkout.status).toBe("expired");
    expect(new Date(checkout.expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(1);
  });
});
