/**
 * Exactly one capture per checkout: the attempt recorded as paying (in the transaction that placed
 * the orders) is the only one ever captured; every other hold is released, however late it
 * resolves and however often settlement runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { fixedClock } from "../../clock";
import { db } from "../../db";
import { paymentProvider } from "../../payments";
import { type PaymentProvider, processorKey } from "../../payments/provider";
import { testCards } from "../../payments/sandbox-cards";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { finalizePayment } from "./finalize-payment";
import { startAttempt } from "./payment-attempt";
import { settlePayments } from "./settle-payments";

let token: string;
let storeId: number;
const card = { type: "card" as const, number: testCards.succeeds, exp_month: 12, exp_year: 2034, cvc: "123" };

beforeAll(async () => {
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});

const newCheckout = async () => {
  const item = await createItem({ storeId, priceCents: 5000 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { text } = await createCheckoutVia(token, { quote_id: quote.body.quote_id, email: "buyer@example.ca" });
  return JSON.parse(text).checkout_id as string;
};

/** The processor with its release call down (an outage while a late hold is being released). */
const releaseDown = (provider: PaymentProvider): PaymentProvider => ({ ...provider, cancel: async () => { throw new Error("processor unavailable"); } });

const ledger = async (checkoutId: string) => {
  const payments = await db().payment.findMany({ where: { checkoutId }, orderBy: { attempt: "asc" } });
  const processor = await db().sandboxPayment.findMany({ where: { id: { in: payments.map((payment) => payment.processorPaymentId!).filter(Boolean) } } });
  const captures = await db().sandboxProcessorRequest.count({ where: { idempotencyKey: { startsWith: `${checkoutId}:` }, response: { path: ["status"], equals: "captured" } } });
  return { payments, processor: new Map(processor.map((row) => [row.id, row.status])), captures };
};

describe("settling payments", () => {
  it("a stalled first attempt that resolves authorized after a second attempt paid is released, never captured", async () => {
    const id = await newCheckout();
    const t0 = new Date();
    // Attempt 1 goes to the processor and its answer stalls.
    const first = await startAttempt(db(), { checkoutId: id, method: "card", cardLast4: "4242", now: t0 });
    // After the attempt timeout the person pays again: attempt 2 places the orders; its capture is lost in a crash.
    const paid = await pageCaller(fixedClock(new Date(t0.getTime() + 61_000))).checkoutPage.pay({ id, accept_terms: true, method: card });
    expect(paid.outcome).toBe("paid");
    const second = await db().payment.findFirstOrThrow({ where: { checkoutId: id, attempt: 2 } });
    await db().payment.update({ where: { id: second.id }, data: { status: "authorized" } });
    await db().sandboxPayment.update({ where: { id: second.processorPaymentId! }, data: { status: "authorized" } });
    await db().sandboxProcessorRequest.delete({ where: { idempotencyKey: processorKey(second, "capture") } });
    // Attempt 1's hold finally comes back authorized; releasing it fails (processor outage).
    const provider = paymentProvider(db());
    const late = await provider.authorize({ idempotencyKey: processorKey(first, "authorize"), amountCents: first.amountCents, method: { type: "card", number: card.number, expMonth: 12, expYear: 2034, cvc: "123" }, description: `Checkout ${id}` });
    await finalizePayment(db(), releaseDown(provider), { payment: first, processorPaymentId: late.id, now: new Date(t0.getTime() + 62_000) }).catch(() => undefined);

    // The late attempt retried: it did not pay, so it is released, not reported paid.
    const retried = await finalizePayment(db(), provider, { payment: first, processorPaymentId: late.id, now: new Date(t0.getTime() + 63_000) });
    expect(retried.outcome).toBe("closed");
    // Settlement, twice (several instances, or the next sweep): captures the paying attempt once.
    for (let run = 0; run < 2; run++) await settlePayments({ db: db(), now: new Date(Date.now() + 120_000) });

    const { payments, processor, captures } = await ledger(id);
    expect(payments.map((payment) => payment.status)).toEqual(["voided", "captured"]);
    expect(processor.get(late.id)).toBe("voided");
    expect(processor.get(second.processorPaymentId!)).toBe("captured");
    expect(captures).toBe(1);
    expect((await db().checkout.findUniqueOrThrow({ where: { id } })).paidPaymentId).toBe(second.id);
  });
});
