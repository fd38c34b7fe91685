/**
 * Refunds (docs/adr/0107) in the sandbox: a partial refund of a store order, then the rest; more
 * than is left refused; the store's share reversed from its transfer; a store cancelling an order
 * it cannot ship; an assistant purchase refunded in full (`refunded`); a processor that does not
 * answer, or whose answer is lost, leaves the refund pending and the sweep finishes it with the same
 * key, never a second refund; the person emailed each time.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../prisma/factories";
import { AppError } from "../core/errors";
import { db } from "../platform/db";
import { type PaymentProvider, paymentProvider } from "../payments";
import { UnknownOutcomeError } from "../payments/provider";
import { settleStoreShares } from "../payouts";
import { chargeDuePurchases } from "../purchases";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { payCheckout } from "../testing/paid-orders";
import { operationHandler } from "../edges/rest/rest-router";
import { callRoute } from "../testing/rest";
import { shopperCaller, visitorCaller } from "../testing/callers";
import { cancelUrl } from "../purchases";
import { refundOrder } from "./refund-order";
import { refundPurchase } from "./refund-purchase";
import { retryPendingRefunds } from "./retry-pending-refunds";
import { sendRefundBackInSandbox } from "./sandbox-refund-sent-back";

const myOrders = operationHandler("GET /api/v1/me/orders");
const myOrder = operationHandler("GET /api/v1/me/orders/{order_number}");
let token: string;
beforeAll(async () => {
  token = await (await createPartner()).token();
});

const paidOrders = async (stores: { id: number }[], prices: number[]) =>
  (await payCheckout(token, stores, prices)).orders;

const refund = (orderNumber: string, amountCents?: number, provider = paymentProvider()) =>
  refundOrder(db(), provider, {
    orderNumber,
    amountCents,
    reason: "Returned by the person",
    source: "operator",
    now: new Date(),
  });

const settle = () => settleStoreShares(db(), { now: new Date(), provider: paymentProvider() });
const ledger = (orderId: string) =>
  db().storeLedgerEntry.findMany({ where: { orderId }, orderBy: { createdAt: "asc" } });
const sandboxRefunds = async (orderId: string) => {
  const payment = await db().payment.findFirstOrThrow({
    where: { refunds: { some: { orderId } } },
  });
  return db().sandboxRefund.findMany({ where: { paymentId: payment.processorPaymentId! } });
};
const refundEmails = (number: string) =>
  db().emailMessage.findMany({
    where: { template: "refund-issued", props: { path: ["orderNumber"], equals: number } },
    orderBy: { createdAt: "asc" },
  });

describe("refunding a store order", () => {
  it("refunds part, then the rest; refuses more than is left; reverses the store's share", async () => {
    const [order] = await paidOrders([await createStore({ platformFeeBps: 1000 })], [10_000]);
    await settle();

    const first = await refund(order.number, 2_500);
    expect(first.refund).toMatchObject({ status: "succeeded", amountCents: 2_500 });
    expect(first.refundedCents).toBe(2_500);
    await expect(refund(order.number, order.grandTotalCents - 2_500 + 1)).rejects.toMatchObject({
      code: "not_refundable",
    });
    const rest = await refund(order.number);
    expect(rest.refund.amountCents).toBe(order.grandTotalCents - 2_500);
    await expect(refund(order.number, 1)).rejects.toMatchObject({ code: "not_refundable" });

    // The processor gave back each refund once, with our id in its metadata.
    const made = await sandboxRefunds(order.id);
    expect(made.map((row) => row.amountCents).sort()).toEqual(
      [2_500, order.grandTotalCents - 2_500].sort(),
    );
    expect(made.map((row) => (row.metadata as { refund: string }).refund).sort()).toEqual(
      [first.refund.id, rest.refund.id].sort(),
    );

    // The ledger: the sale and two refunds cancel out, fee included; each refund is reversed from the transfer.
    await settle();
    const rows = await ledger(order.id);
    expect(rows.map((row) => row.kind)).toEqual(["sale", "refund", "refund"]);
    const sum = (key: "netCents" | "feeCents" | "itemsCents") =>
      rows.reduce((total, row) => total + row[key], 0);
    expect([sum("netCents"), sum("feeCents"), sum("itemsCents")]).toEqual([0, 0, 0]);
    const reversals = await db().sandboxTransferReversal.findMany({
      where: { transferId: rows[0].transferId! },
    });
    expect(reversals.map((row) => row.amountCents).sort()).toEqual(
      rows
        .slice(1)
        .map((row) => -row.netCents)
        .sort(),
    );
    expect(rows.every((row) => row.transferStatus === "transferred")).toBe(true);

    // The person was told each time: how much, of what, and when it reaches the card.
    const emails = await refundEmails(order.number);
    expect(emails).toHaveLength(2);
    expect(emails[0].props).toMatchObject({ amountCents: 2500, cardLast4: "4242" });
    expect(emails[1].props).toMatchObject({
      refundedCents: order.grandTotalCents,
      orderTotalCents: order.grandTotalCents,
      locale: "en-CA",
    });
  });

  it("a refund before the sweep wrote the sale still writes both rows, and the reversal waits for the transfer", async () => {
    const [order] = await paidOrders([await createStore()], [4_000]);
    await refund(order.number, 1_000);
    const before = await ledger(order.id);
    expect(before.map((row) => [row.kind, row.transferStatus])).toEqual([
      ["sale", "pending"],
      ["refund", "pending"],
    ]);
    await settle();
    const after = await ledger(order.id);
    expect(after.map((row) => row.transferStatus)).toEqual(["transferred", "transferred"]);
    // The sale went whole; the refund's share came back by reversal.
    const transfer = await db().sandboxTransfer.findUniqueOrThrow({
      where: { id: after[0].transferId! },
    });
    expect(transfer.amountCents).toBe(after[0].netCents);
    expect(after[1].transferId).toMatch(/^sbtrr_/);
  });

  it("a store cancelling an order refunds it in full; a shipped order it cannot cancel", async () => {
    const [order, shipped] = await paidOrders(
      [await createStore(), await createStore()],
      [3_000, 2_000],
    );
    const cancelled = await refundOrder(db(), paymentProvider(), {
      orderNumber: order.number,
      reason: "Out of stock at the store",
      source: "store_cancelled",
      now: new Date(),
    });
    expect(cancelled.refund).toMatchObject({
      status: "succeeded",
      amountCents: order.grandTotalCents,
      source: "store_cancelled",
    });
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      cancelReason: "Out of stock at the store",
      cancelledAt: expect.any(Date),
    });
    await db().order.update({ where: { id: shipped.id }, data: { fulfilment: "shipped" } });
    await expect(
      refundOrder(db(), paymentProvider(), {
        orderNumber: shipped.number,
        reason: "Out of stock",
        source: "store_cancelled",
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "order_shipped" });
    expect(await db().order.findUniqueOrThrow({ where: { id: shipped.id } })).toMatchObject({
      cancelledAt: null,
    });
    await expect(refund("SO-NOSUCH-1")).rejects.toBeInstanceOf(AppError);
  });

  it("an assistant purchase refunded in full is refunded; one still held cannot be", async () => {
    const {
      token: agent,
      agent: client,
      person,
    } = await agentWithPerson({
      scope: "catalog:read checkout:write address:read purchase:write orders:read",
    });
    // The assistant listens for refunds.
    await db().webhookEndpoint.create({
      data: {
        id: `we_${crypto.randomUUID()}`,
        clientId: client.id,
        personId: null,
        url: "https://assistant.example/hooks",
        eventTypes: ["order.refunded", "purchase.refunded"],
        secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA",
      },
    });
    const item = await directItem(5_000);
    const bought = await buy(agent, (await quoteOf(agent, [item.id])).quote_id);
    const purchaseId = bought.body.purchase_id as string;
    await expect(
      refundPurchase(db(), paymentProvider(), { purchaseId, reason: "Returned", now: new Date() }),
    ).rejects.toMatchObject({ code: "order_not_paid" });
    await chargeDuePurchases(db(), {
      now: new Date(Date.now() + 25 * 3_600_000),
      provider: paymentProvider(),
    });
    const [outcome] = await refundPurchase(db(), paymentProvider(), {
      purchaseId,
      reason: "Returned",
      now: new Date(),
    });
    expect(outcome.refund.status).toBe("succeeded");
    expect((await db().purchase.findUniqueOrThrow({ where: { id: purchaseId } })).status).toBe(
      "refunded",
    );
    const events = await db().webhookEvent.findMany({
      where: { clientId: client.id },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((event) => event.type).sort()).toEqual([
      "order.refunded",
      "purchase.refunded",
    ]);
    // The person's orders show it (GET /me/orders and its single order).
    const mine = await (await callRoute(myOrders, { path: "/me/orders", token: agent })).json();
    const [order] = mine.data;
    expect(order).toMatchObject({ purchase_id: purchaseId, status: "refunded" });
    expect(order.refunded).toEqual(order.totals.grand_total);
    const one = await callRoute(myOrder, {
      path: `/me/orders/${order.order_number}`,
      token: agent,
      params: { order_number: order.order_number },
    });
    expect(await one.json()).toMatchObject({ status: "refunded", refunded: order.refunded });
    // And the dashboard's /account/purchases.
    const [listed] = (await shopperCaller(person.id).account.listMyPurchases()).purchases;
    expect(listed).toMatchObject({ purchase_id: purchaseId, status: "refunded" });
    expect(listed.refunded).toEqual(listed.grand_total);
    const refunded = events.find((event) => event.type === "order.refunded")!;
    expect(refunded.payload).toMatchObject({
      data: {
        purchase_id: purchaseId,
        refund: { id: outcome.refund.id, reason: "Returned" },
        fully_refunded: true,
      },
    });
  });

  it("a processor that does not answer leaves it pending; the sweep finishes it with the same key, once, and the partner hears of it once (B6-05)", async () => {
    const [order] = await paidOrders([await createStore()], [6_000]);
    const { clientId } = await db().checkout.findUniqueOrThrow({
      where: { id: order.checkoutId! },
      select: { clientId: true },
    });
    await db().webhookEndpoint.create({
      data: {
        id: `we_${randomUUID()}`,
        clientId,
        url: "https://hooks.example.ca/refunds",
        eventTypes: ["order.refunded"],
        secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA",
      },
    });
    // The refund is made, but its answer is lost on the way back.
    const lost: PaymentProvider = {
      ...paymentProvider(),
      refund: async (input) => {
        await paymentProvider().refund(input);
        throw new UnknownOutcomeError("answer lost");
      },
    };
    const pending = await refund(order.number, 2_000, lost);
    expect(pending.refund).toMatchObject({
      status: "pending",
      failureReason: "processor_unanswered",
    });
    // Still counted: nothing more than what is left can be asked meanwhile.
    await expect(refund(order.number, order.grandTotalCents - 1_999)).rejects.toMatchObject({
      code: "not_refundable",
    });
    expect(await refundEmails(order.number)).toHaveLength(0);

    await retryPendingRefunds(db(), {
      now: new Date(Date.now() + 10 * 60_000),
      provider: paymentProvider(),
    });
    await retryPendingRefunds(db(), {
      now: new Date(Date.now() + 20 * 60_000),
      provider: paymentProvider(),
    });
    expect(await db().refund.findUniqueOrThrow({ where: { id: pending.refund.id } })).toMatchObject(
      {
        status: "succeeded",
      },
    );
    expect(await sandboxRefunds(order.id)).toHaveLength(1);
    expect(await refundEmails(order.number)).toHaveLength(1);
    expect((await ledger(order.id)).filter((row) => row.kind === "refund")).toHaveLength(1);
    expect(
      await db().webhookEvent.count({ where: { type: "order.refunded", objectId: order.number } }),
    ).toBe(1);
  });
});

describe("the person's view of a purchase's refunds (/account/purchases)", () => {
  it("says what reached the card, what is on its way, and what the bank sent back", async () => {
    const { token: agent, person } = await agentWithPerson();
    const bought = await buy(
      agent,
      (await quoteOf(agent, [(await directItem(8_000)).id])).quote_id,
    );
    const purchaseId = bought.body.purchase_id as string;
    await chargeDuePurchases(db(), {
      now: new Date(Date.now() + 25 * 3_600_000),
      provider: paymentProvider(),
    });
    const listed = async () =>
      (await shopperCaller(person.id).account.listMyPurchases()).purchases.find(
        (purchase) => purchase.purchase_id === purchaseId,
      )!;
    expect(await listed()).toMatchObject({
      refunded: null,
      refund_on_its_way: null,
      refund_sent_back: null,
    });
    const [{ orderNumber }] = await refundPurchase(db(), paymentProvider(), {
      purchaseId,
      amountCents: 3_000,
      reason: "Returned",
      now: new Date(),
    });

    // A second refund whose answer is lost: on its way until the sweep hears of it.
    const lost: PaymentProvider = {
      ...paymentProvider(),
      refund: async (input) => {
        await paymentProvider().refund(input);
        throw new UnknownOutcomeError("answer lost");
      },
    };
    await refund(orderNumber, 1_000, lost);
    expect(await listed()).toMatchObject({
      status: "paid",
      refunded: { amount: "30.00" },
      refund_on_its_way: { amount: "10.00" },
      refund_sent_back: null,
    });

    // Days later the bank sends the first back (the sandbox's bank, as Stripe's webhook would tell
    // us); the same look at the processor's list finds the second made: it reached the card.
    const first = await db().refund.findFirstOrThrow({
      where: { status: "succeeded", order: { purchaseId } },
    });
    expect(
      await sendRefundBackInSandbox(db(), paymentProvider(), {
        refundId: first.id,
        reason: "lost_or_stolen_card",
        now: new Date(),
      }),
    ).toMatchObject({ status: "failed" });
    const shown = await listed();
    expect(shown).toMatchObject({
      refunded: { amount: "10.00" },
      refund_on_its_way: null,
      refund_sent_back: { amount: { amount: "30.00" }, reason: "lost_or_stolen_card" },
    });
    expect(Date.parse(shown.refund_sent_back!.at)).toBeGreaterThan(Date.now() - 60_000);

    // The cancel page the purchase's email links to says the same, to the link's holder only.
    const { cancelUntil } = await db().purchase.findUniqueOrThrow({ where: { id: purchaseId } });
    const token = new URL(cancelUrl({ id: purchaseId, cancelUntil })).searchParams.get("token")!;
    const onPage = await visitorCaller().purchaseRefunds.ofCancelLink({ id: purchaseId, token });
    expect(onPage).toEqual({
      refunded: shown.refunded,
      refund_on_its_way: null,
      refund_sent_back: shown.refund_sent_back,
    });
    await expect(
      visitorCaller().purchaseRefunds.ofCancelLink({ id: `${purchaseId}x`, token }),
    ).rejects.toThrow("This cancel link is not valid");
  });
});
