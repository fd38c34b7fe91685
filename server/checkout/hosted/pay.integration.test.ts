/**
 * Paying on the hosted page through the page's procedures and the sandbox processor: the test
 * cards, Link, the authentication step, checks again at payment, orders and the confirmation
 * email, shipping changes, never a second charge, and the payments safety net.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { db } from "../../platform/db";
import { fixedClock } from "../../platform/clock";
import { paymentProvider } from "../../payments";
import { testCards } from "../../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { partnerCaller } from "../../testing/callers";
import { settlePayments } from "../settle-payments";
import { useProductionEnv } from "../../testing/production-env";
import { failureOf } from "../../testing/oauth";

let token: string;
let stores: { id: number; slug: string }[];
const page = pageCaller();
const card = (number: string) => ({
  type: "card" as const,
  number,
  exp_month: 12,
  exp_year: 2034,
  cvc: "123",
});

beforeAll(async () => {
  token = await (await createPartner()).token();
  stores = [await createStore(), await createStore({ freeShippingThresholdCents: null })];
});

const newCheckout = async (email = "buyer@example.ca") => {
  const items = [
    await createItem({ storeId: stores[0].id, priceCents: 5000 }),
    await createItem({ storeId: stores[1].id, priceCents: 3000 }),
  ];
  const quote = await createQuoteVia(
    token,
    items.map((item) => ({ item_id: item.id })),
  );
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email,
    first_name: "Ana",
  });
  return { id: JSON.parse(text).checkout_id as string, items };
};

describe("paying", () => {
  it("the success card places one order per store under one order number, marks items sold, captures once and emails the checkout address", async () => {
    const { id, items } = await newCheckout();
    const outcome = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card("4242 4242 4242 4242"),
    });
    expect(outcome).toMatchObject({
      outcome: "paid",
      orderNumber: expect.stringMatching(/^SO-[0-9A-Z]{8}$/),
    });
    const orderNumber = (outcome as { orderNumber: string }).orderNumber;
    const orders = await db().order.findMany({
      where: { checkoutId: id },
      orderBy: { number: "asc" },
    });
    expect(orders.map((order) => order.number)).toEqual([`${orderNumber}-1`, `${orderNumber}-2`]);
    const checkout = await db().checkout.findUniqueOrThrow({ where: { id } });
    expect(checkout).toMatchObject({ status: "paid", orderNumber });
    expect(orders.reduce((sum, order) => sum + order.grandTotalCents, 0)).toBe(
      checkout.grandTotalCents,
    );
    expect(
      await db().item.count({
        where: { id: { in: items.map((item) => item.id) }, status: "sold" },
      }),
    ).toBe(2);
    const payments = await db().payment.findMany({ where: { checkoutId: id } });
    expect(payments.map((payment) => [payment.status, payment.amountCents])).toEqual([
      ["captured", checkout.grandTotalCents],
    ]);
    expect(
      await db().sandboxPayment.count({
        where: { id: payments[0].processorPaymentId!, status: "captured" },
      }),
    ).toBe(1);
    const email = await db().emailMessage.findFirstOrThrow({
      where: { dedupeKey: `order-confirmation:${id}` },
    });
    expect(email.to).toBe("buyer@example.ca");
    expect(email.props).toMatchObject({ orderNumber, firstName: "Ana" });
    const detail = await partnerCaller(undefined, checkout.clientId).checkout.getSession({
      checkout_id: id,
    });
    expect(detail.stores.map((store) => store.order?.order_number)).toEqual([
      `${orderNumber}-1`,
      `${orderNumber}-2`,
    ]);
    expect(detail.stores[0].order).toMatchObject({ fulfilment: "processing", tracking: null });
    await expect(
      page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    expect(
      await db().sandboxPayment.count({
        where: {
          status: "captured",
          id: { in: payments.map((payment) => payment.processorPaymentId!) },
        },
      }),
    ).toBe(1);
  });

  it("a declined card leaves the checkout payable; another card then pays it with a new processor key", async () => {
    const { id } = await newCheckout();
    const declined = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.declined),
    });
    expect(declined).toEqual({
      outcome: "declined",
      reason: "card_declined",
      message: expect.stringContaining("declined"),
    });
    expect((await page.checkoutPage.view({ id })).status).toBe("awaiting_payment");
    expect(
      (await page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }))
        .outcome,
    ).toBe("paid");
    expect(
      (await db().payment.findMany({ where: { checkoutId: id }, orderBy: { attempt: "asc" } })).map(
        (payment) => payment.status,
      ),
    ).toEqual(["declined", "captured"]);
  });

  it("the authentication card asks for the confirm step; failing it declines, passing it pays", async () => {
    const { id } = await newCheckout();
    const first = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.requiresAuthentication),
    });
    expect(first).toMatchObject({ outcome: "requires_action" });
    expect((await page.checkoutPage.view({ id })).pendingPaymentId).toBe(
      (first as { paymentId: string }).paymentId,
    );
    expect(
      (
        await page.checkoutPage.confirmAuthentication({
          id,
          payment_id: (first as { paymentId: string }).paymentId,
          authenticated: false,
        })
      ).outcome,
    ).toBe("declined");
    const second = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.requiresAuthentication),
    });
    const confirmed = await page.checkoutPage.confirmAuthentication({
      id,
      payment_id: (second as { paymentId: string }).paymentId,
      authenticated: true,
    });
    expect(confirmed.outcome).toBe("paid");
  });

  it("Link pays with the wallet's saved card", async () => {
    const { id } = await newCheckout();
    expect(
      (
        await page.checkoutPage.pay({
          id,
          accept_terms: true,
          method: { type: "link", email: "buyer@example.ca" },
        })
      ).outcome,
    ).toBe("paid");
  });

  it("refuses without the terms, with a mistyped or expired card, naming the field", async () => {
    const { id } = await newCheckout();
    await expect(
      page.checkoutPage.pay({ id, accept_terms: false as true, method: card(testCards.succeeds) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      page.checkoutPage.pay({ id, accept_terms: true, method: card("4242 4242 4242 4241") }),
    ).rejects.toThrow(/valid card number/);
    await expect(
      page.checkoutPage.pay({
        id,
        accept_terms: true,
        method: { ...card(testCards.succeeds), exp_year: 2020 },
      }),
    ).rejects.toMatchObject({
      cause: { options: { fields: { "method.exp_year": "the card has expired" } } },
    });
    expect(await db().payment.count({ where: { checkoutId: id } })).toBe(0);
  });

  it("in production refuses a card number posted to the pay step before anything is opened (B6-01): the page pays through the processor's form", async () => {
    const { id } = await newCheckout();
    useProductionEnv();
    const refused = await failureOf(
      page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
    );
    expect([refused.code, refused.status]).toEqual(["forbidden", 403]);
    expect(refused.message).toContain("never accepts a card number");
    expect(await db().payment.count({ where: { checkoutId: id } })).toBe(0);
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "awaiting_payment",
    });
  });

  it("two payments at once charge once", async () => {
    const { id } = await newCheckout();
    const results = await Promise.allSettled(
      [0, 1].map(() =>
        page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
      ),
    );
    expect(
      results.filter((result) => result.status === "fulfilled" && result.value.outcome === "paid"),
    ).toHaveLength(1);
    const payments = await db().payment.findMany({ where: { checkoutId: id } });
    expect(payments.filter((payment) => payment.status === "captured")).toHaveLength(1);
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(2);
  });
});

describe("checked again at payment", () => {
  it("a price change cancels the checkout, frees the items and charges nothing", async () => {
    const { id, items } = await newCheckout();
    await db().item.update({ where: { id: items[0].id }, data: { priceCents: 4000 } });
    await expect(
      page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "cancelled",
      closedReason: "price_changed",
    });
    expect((await db().variant.findFirstOrThrow({ where: { itemId: items[1].id } })).quantity).toBe(
      1,
    );
    expect(await db().payment.count({ where: { checkoutId: id } })).toBe(0);
  });

  it("a lapsed link expires on the spot; the page then shows it expired", async () => {
    const { id } = await newCheckout();
    const late = pageCaller(fixedClock(new Date(Date.now() + 31 * 60_000)));
    await expect(
      late.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    expect((await page.checkoutPage.view({ id })).status).toBe("expired");
  });

  it("a 3-D Secure confirmation after the link lapsed releases the hold, expires the checkout and charges nothing", async () => {
    const { id, items } = await newCheckout();
    const started = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.requiresAuthentication),
    });
    const late = pageCaller(fixedClock(new Date(Date.now() + 31 * 60_000)));
    const outcome = await late.checkoutPage.confirmAuthentication({
      id,
      payment_id: (started as { paymentId: string }).paymentId,
      authenticated: true,
    });
    expect(outcome).toEqual({
      outcome: "closed",
      reason: "lapsed",
      message: expect.stringMatching(/expired.*nothing was charged/),
    });
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "expired",
      orderNumber: null,
      paidPaymentId: null,
    });
    const payment = await db().payment.findFirstOrThrow({ where: { checkoutId: id } });
    expect(payment.status).toBe("voided");
    expect(
      (await db().sandboxPayment.findUniqueOrThrow({ where: { id: payment.processorPaymentId! } }))
        .status,
    ).toBe("voided");
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
    expect((await db().variant.findFirstOrThrow({ where: { itemId: items[0].id } })).quantity).toBe(
      1,
    );
  });

  it("a hold that arrives after the checkout closed is released, not captured", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.pay({
      id,
      accept_terms: true,
      method: card(testCards.requiresAuthentication),
    });
    await partnerCaller(
      undefined,
      (await db().checkout.findUniqueOrThrow({ where: { id } })).clientId,
    ).checkout.cancelSession({ checkout_id: id });
    const outcome = await page.checkoutPage.confirmAuthentication({
      id,
      payment_id: (started as { paymentId: string }).paymentId,
      authenticated: true,
    });
    expect(outcome.outcome).toBe("closed");
    const payment = await db().payment.findFirstOrThrow({ where: { checkoutId: id } });
    expect(payment.status).toBe("voided");
    expect(
      (await db().sandboxPayment.findUniqueOrThrow({ where: { id: payment.processorPaymentId! } }))
        .status,
    ).toBe("voided");
  });
});

describe("shipping changes and the safety net", () => {
  it("changing a store's option updates the totals from the snapshot; an unknown option is refused", async () => {
    const { id } = await newCheckout();
    const before = await page.checkoutPage.view({ id });
    await page.checkoutPage.selectShipping({ id, store: stores[1].slug, option: "express" });
    const after = await page.checkoutPage.view({ id });
    expect(after.stores[1].selected_shipping).toBe("express");
    expect(before.stores[1].selected_shipping).toBe("standard");
    const cents = (money: { amount: string }) => Number(money.amount.replace(".", ""));
    expect(after.stores[1].totals).toEqual(after.stores[1].shipping_options[1].totals);
    expect(cents(after.totals.grand_total)).toBe(
      cents(after.stores[0].totals.grand_total) + cents(after.stores[1].totals.grand_total),
    );
    expect(cents(after.totals.grand_total)).toBeGreaterThan(cents(before.totals.grand_total));
    await expect(
      page.checkoutPage.selectShipping({ id, store: stores[1].slug, option: "drone" }),
    ).rejects.toMatchObject({ cause: { code: "invalid_request" } });
  });

  it("the processor answers a repeated key with its first answer", async () => {
    const provider = paymentProvider();
    const input = {
      idempotencyKey: `chk_test:${Date.now()}:authorize`,
      amountCents: 1000,
      method: { type: "link" as const, email: "a@example.ca" },
      description: "x",
    };
    const [a, b] = [await provider.authorize(input), await provider.authorize(input)];
    expect(b.id).toBe(a.id);
    await expect(provider.authorize({ ...input, amountCents: 2000 })).rejects.toThrow(/reused/);
  });

  it("captures a hold left authorized by a crash after the orders were placed", async () => {
    const { id } = await newCheckout();
    await page.checkoutPage.pay({ id, accept_terms: true, method: card(testCards.succeeds) });
    const payment = await db().payment.findFirstOrThrow({ where: { checkoutId: id } });
    // Simulate the crash: the capture never happened.
    await db().payment.update({ where: { id: payment.id }, data: { status: "authorized" } });
    await db().sandboxPayment.update({
      where: { id: payment.processorPaymentId! },
      data: { status: "authorized" },
    });
    await settlePayments({ db: db(), now: new Date(Date.now() + 120_000) });
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe(
      "captured",
    );
  });
});
