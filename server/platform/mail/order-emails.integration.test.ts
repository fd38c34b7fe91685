/** The order confirmation and tracking emails, delivered through the outbox to a real SMTP server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { db } from "../db";
import { testCards } from "../../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { callRoute } from "../../testing/rest";
import { startSmtpCapture } from "../../testing/smtp-capture";
import { deliverDueEmails, smtpTransport } from "./sender";
import { operationHandler } from "@/server/edges/rest/rest-router";

const shipRoute = operationHandler("POST /api/v1/sandbox/orders/{order}/ship");

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp.stop());

describe("order emails", () => {
  it("a paid checkout sends one confirmation with each store's order, tax lines and total; shipping sends the tracking", async () => {
    const token = await (await createPartner()).token();
    const [maple, north] = [
      await createStore({ name: "Maple & Thread" }),
      await createStore({ name: "North Loop" }),
    ];
    const items = [
      await createItem({ storeId: maple.id, title: "Wool coat", priceCents: 12900, sizes: ["M"] }),
      await createItem({ storeId: north.id, title: "Silk scarf", priceCents: 3500 }),
    ];
    const quote = await createQuoteVia(
      token,
      items.map((item) => ({ item_id: item.id })),
      {
        name: "Ana Tremblay",
        line1: "1 Rue Sainte-Catherine",
        city: "Montréal",
        province: "QC",
        postal_code: "H2X 1Y4",
        country: "CA",
      },
    );
    const { text } = await createCheckoutVia(token, {
      quote_id: quote.body.quote_id,
      email: "ana.orders@example.ca",
      first_name: "Ana",
    });
    const checkout = JSON.parse(text);
    const paid = await pageCaller().checkoutPage.pay({
      id: checkout.checkout_id,
      accept_terms: true,
      method: {
        type: "card",
        number: testCards.succeeds,
        exp_month: 1,
        exp_year: 2040,
        cvc: "123",
      },
    });
    const orderNumber = (paid as { orderNumber: string }).orderNumber;
    const transport = smtpTransport(smtp.url);
    await deliverDueEmails({ db: db(), now: new Date(), transport });
    const confirmation = await smtp.waitFor("ana.orders@example.ca");
    expect(confirmation.subject).toBe(`Your order ${orderNumber} is confirmed`);
    expect(confirmation.text).toMatch(/thank you for your order, ana/i);
    expect(confirmation.html).toContain("Thank you for your order, Ana");
    for (const expected of [
      `${orderNumber}-1`,
      `${orderNumber}-2`,
      "Maple & Thread",
      "Wool coat",
      "Size M",
      "QST 9.975%",
      "GST 5%",
      `$${checkout.totals.grand_total.amount}`,
      "H2X 1Y4",
    ]) {
      expect(confirmation.text).toContain(expected);
    }
    await callRoute(shipRoute, {
      path: `/sandbox/orders/${orderNumber}-1/ship`,
      token,
      body: { tracking_number: "7023 4567 8901" },
      params: { order: `${orderNumber}-1` },
    });
    await deliverDueEmails({ db: db(), now: new Date(), transport });
    await expect
      .poll(
        () =>
          smtp.messages.filter((message) => message.to.includes("ana.orders@example.ca")).length,
      )
      .toBe(2);
    const tracking = smtp.messages.find(
      (message) => message.subject === `Order ${orderNumber}-1 has shipped`,
    )!;
    expect(tracking.text).toContain("7023 4567 8901");
    expect(tracking.text).toContain("Canada Post");
    expect(tracking.text).toContain("Wool coat (size M)");
  });
});
