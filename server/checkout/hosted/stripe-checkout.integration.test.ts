/**
 * The hosted checkout with the Stripe processor and the Payment Element, through the page's
 * procedures and the real `stripe` package against the local Stripe-shaped server; the browser's
 * part (Stripe.js confirming the intent with the publishable key and the client secret) is played
 * by `confirmAsBrowser`, as the stand-in Stripe.js does it in the Playwright tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartner, createStore } from "../../../prisma/factories";
import { fixedClock } from "../../platform/clock";
import { db } from "../../platform/db";
import { resetEnv } from "../../platform/env";
import { paymentProvider } from "../../payments";
import { attemptTimeoutMs } from "../../payments/payment-steps";
import { processorKey } from "../../payments/provider";
import { openCheckoutVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { startStripeShapedServer } from "../../testing/stripe-shaped-server";
import { completeCheckoutIntent } from "./complete-intent";
import { settleOpenIntents } from "./settle-open-intents";
import { settlePayments } from "../settle-payments";

let stripe: Awaited<ReturnType<typeof startStripeShapedServer>>;
let token: string;
let storeId: number;
const page = pageCaller();
const card = (number: string) => ({
  "payment_method_data[type]": "card",
  "payment_method_data[card][number]": number,
  "payment_method_data[card][exp_month]": "12",
  "payment_method_data[card][exp_year]": "2034",
  "payment_method_data[card][cvc]": "123",
});
const returnUrl = (id: string) => ({ return_url: `http://127.0.0.1:1/checkout/${id}` });

beforeAll(async () => {
  stripe = await startStripeShapedServer();
  Object.assign(process.env, {
    PAYMENT_PROCESSOR: "stripe",
    STRIPE_SECRET_KEY: "sk_test_local",
    STRIPE_API_BASE: stripe.url,
  });
  resetEnv();
  token = await (await createPartner()).token();
  storeId = (await createStore()).id;
});
afterAll(async () => {
  for (const name of ["PAYMENT_PROCESSOR", "STRIPE_SECRET_KEY", "STRIPE_API_BASE"])
    delete process.env[name];
  resetEnv();
  await stripe.close();
});

const newCheckout = () =>
  openCheckoutVia(token, { storeId, priceCents: 5000, email: "buyer@example.ca" });
const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0];
/** What the person's browser does with a started intent: Stripe.js confirms it with the test card, then the page's return. */
const confirmAndReturn = async (id: string, started: { clientSecret: string }) => {
  await stripe.confirmAsBrowser(
    intentIdOf(started.clientSecret),
    started.clientSecret,
    card("4242424242424242"),
  );
  return page.checkoutPage.completeIntent({ id, payment_intent: intentIdOf(started.clientSecret) });
};
const captured = (id: string) =>
  [...stripe.intents.values()].filter(
    (intent) =>
      (intent.metadata as Record<string, string>).checkout_id === id &&
      intent.status === "succeeded",
  ).length;

describe("the Payment Element's intent", () => {
  it("is one manual-capture PaymentIntent per attempt, keyed by the attempt, with our ids in its metadata; the page gets only its client secret", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    expect(Object.keys(started).sort()).toEqual(["clientSecret", "paymentId"]);
    expect(started.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const intent = stripe.intents.get(intentIdOf(started.clientSecret))!;
    const payment = await db().payment.findUniqueOrThrow({ where: { id: started.paymentId } });
    expect(payment).toMatchObject({
      status: "requires_action",
      processorPaymentId: intent.id,
      attempt: 1,
      amountCents: intent.amount,
    });
    expect(intent).toMatchObject({
      status: "requires_payment_method",
      capture_method: "manual",
      currency: "cad",
      automatic_payment_methods: { enabled: true },
      metadata: {
        authorize_key: processorKey({ kind: "checkout", id, attempt: 1 }, "authorize"),
        payment_id: payment.id,
        checkout_id: id,
      },
    });
    // The same key replays the same intent: a retried create never opens a second one.
    const count = stripe.intents.size;
    const again = await paymentProvider().createIntent({
      idempotencyKey: processorKey({ kind: "checkout", id, attempt: 1 }, "authorize"),
      amountCents: payment.amountCents,
      description: `Checkout ${id}`,
      metadata: { payment_id: payment.id, checkout_id: id },
    });
    expect(again.id).toBe(intent.id);
    expect(stripe.intents.size).toBe(count);
  });

  it("when Stripe does not answer, the person is told to retry and the attempt is left to the settlement sweep", async () => {
    const { id } = await newCheckout();
    stripe.dropNextRequests(3);
    await expect(page.checkoutPage.startIntent({ id, accept_terms: true })).rejects.toMatchObject({
      cause: { code: "payment_in_progress" },
    });
    expect(await db().payment.findFirstOrThrow({ where: { checkoutId: id } })).toMatchObject({
      status: "authorizing",
      processorPaymentId: null,
    });
  });

  it("refuses without the terms, and on a closed checkout", async () => {
    const { id } = await newCheckout();
    await expect(
      page.checkoutPage.startIntent({ id, accept_terms: false as true }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await db().checkout.update({ where: { id }, data: { status: "cancelled" } });
    await expect(page.checkoutPage.startIntent({ id, accept_terms: true })).rejects.toMatchObject({
      cause: { code: "checkout_closed" },
    });
  });
});

describe("completing an intent the browser confirmed", () => {
  it("places the orders once and captures once, however many times (and however concurrently) the completion arrives", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    expect(await page.checkoutPage.completeIntent({ id, payment_intent: intentId })).toBeNull();
    expect(
      (
        await stripe.confirmAsBrowser(intentId, started.clientSecret, {
          ...card("4242424242424242"),
          ...returnUrl(id),
        })
      ).body,
    ).toMatchObject({ status: "requires_capture" });
    const outcomes = await Promise.all([
      page.checkoutPage.completeIntent({ id, payment_intent: intentId }),
      completeCheckoutIntent(db(), paymentProvider(), {
        processorPaymentId: intentId,
        now: new Date(),
      }),
      page.checkoutPage.completeIntent({ id, payment_intent: intentId }),
    ]);
    const orderNumber = (await db().checkout.findUniqueOrThrow({ where: { id } })).orderNumber;
    expect(outcomes).toEqual([0, 1, 2].map(() => ({ outcome: "paid", orderNumber })));
    expect(await page.checkoutPage.completeIntent({ id, payment_intent: intentId })).toEqual({
      outcome: "paid",
      orderNumber,
    });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(1);
    expect(
      await db().payment.findUniqueOrThrow({ where: { id: started.paymentId } }),
    ).toMatchObject({ status: "captured" });
    expect(stripe.intents.get(intentId)).toMatchObject({
      status: "succeeded",
      amount_received: stripe.intents.get(intentId)!.amount,
    });
    expect(captured(id)).toBe(1);
  });

  it("an intent of another checkout is refused", async () => {
    const [first, second] = [await newCheckout(), await newCheckout()];
    const started = await page.checkoutPage.startIntent({ id: first.id, accept_terms: true });
    await expect(
      page.checkoutPage.completeIntent({
        id: second.id,
        payment_intent: intentIdOf(started.clientSecret),
      }),
    ).rejects.toMatchObject({ cause: { code: "not_found" } });
  });

  it("a decline is recorded and its intent cancelled; a new attempt then pays with a new intent", async () => {
    const { id } = await newCheckout();
    const first = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const declined = await stripe.confirmAsBrowser(
      intentIdOf(first.clientSecret),
      first.clientSecret,
      card("4000000000000002"),
    );
    expect(declined).toMatchObject({
      status: 402,
      body: { error: { type: "card_error", code: "card_declined" } },
    });
    expect(
      await page.checkoutPage.completeIntent({
        id,
        payment_intent: intentIdOf(first.clientSecret),
      }),
    ).toEqual({
      outcome: "declined",
      reason: "card_declined",
      message: expect.stringContaining("declined"),
    });
    expect(await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } })).toMatchObject({
      status: "declined",
      declineCode: "card_declined",
    });
    expect(stripe.intents.get(intentIdOf(first.clientSecret))).toMatchObject({
      status: "canceled",
    });
    const second = await page.checkoutPage.startIntent({ id, accept_terms: true });
    expect(intentIdOf(second.clientSecret)).not.toBe(intentIdOf(first.clientSecret));
    expect(await confirmAndReturn(id, second)).toMatchObject({ outcome: "paid" });
  });

  it("3-D Secure: the intent waits for the person, then the return after the bank's page pays", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    const confirmed = await stripe.confirmAsBrowser(intentId, started.clientSecret, {
      ...card("4000002500003155"),
      ...returnUrl(id),
    });
    const redirect = (confirmed.body.next_action as { redirect_to_url: { url: string } })
      .redirect_to_url.url;
    expect(confirmed.body).toMatchObject({
      status: "requires_action",
      next_action: { type: "redirect_to_url" },
    });
    expect(await page.checkoutPage.completeIntent({ id, payment_intent: intentId })).toBeNull();
    const bank = await fetch(redirect.replace(`/3ds/${intentId}?`, `/3ds/${intentId}/complete?`), {
      method: "POST",
      redirect: "manual",
    });
    const back = new URL(bank.headers.get("location")!);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      payment_intent: intentId,
      payment_intent_client_secret: started.clientSecret,
      redirect_status: "succeeded",
    });
    expect(await page.checkoutPage.completeIntent({ id, payment_intent: intentId })).toMatchObject({
      outcome: "paid",
    });
  });

  it("Link authorizes like a card", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    await stripe.confirmAsBrowser(intentIdOf(started.clientSecret), started.clientSecret, {
      "payment_method_data[type]": "link",
    });
    expect(
      await page.checkoutPage.completeIntent({
        id,
        payment_intent: intentIdOf(started.clientSecret),
      }),
    ).toMatchObject({ outcome: "paid" });
  });

  it("the sandbox's card step, posted anyway, takes only the test cards our server may send Stripe: another number, the 3-D Secure card or Link is a 422 naming the field, with nothing opened", async () => {
    const { id } = await newCheckout();
    const intents = stripe.intents.size;
    const pay = (method: Parameters<typeof page.checkoutPage.pay>[0]["method"]) =>
      page.checkoutPage.pay({ id, accept_terms: true, method, language: "en" });
    await expect(
      pay({ type: "card", number: "4111111111111111", exp_month: 12, exp_year: 2034, cvc: "123" }),
    ).rejects.toMatchObject({
      cause: {
        code: "invalid_request",
        options: { fields: { "method.number": expect.stringMatching(/Stripe's own form/) } },
      },
    });
    // A card asking for 3-D Secure is authenticated only in Stripe's own form, in the browser.
    await expect(
      pay({ type: "card", number: "4000002500003155", exp_month: 12, exp_year: 2034, cvc: "123" }),
    ).rejects.toMatchObject({
      cause: {
        code: "invalid_request",
        options: { fields: { "method.number": expect.stringMatching(/3-D Secure/) } },
      },
    });
    await expect(pay({ type: "link", email: "buyer@example.ca" })).rejects.toMatchObject({
      cause: {
        code: "invalid_request",
        options: { fields: { "method.type": expect.any(String) } },
      },
    });
    expect(await db().payment.count({ where: { checkoutId: id } })).toBe(0);
    expect(stripe.intents.size).toBe(intents);
    // Every sandbox test card maps to one of Stripe's test payment methods (the slow bank too).
    expect(
      await pay({
        type: "card",
        number: "4000000000000093",
        exp_month: 12,
        exp_year: 2034,
        cvc: "123",
      }),
    ).toMatchObject({ outcome: "paid" });
  });

  it("an authorization arriving after the 30-minute expiry releases the hold and places nothing", async () => {
    const { id, itemId } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    await stripe.confirmAsBrowser(intentId, started.clientSecret, card("4242424242424242"));
    const { expiresAt } = await db().checkout.findUniqueOrThrow({ where: { id } });
    const late = await completeCheckoutIntent(db(), paymentProvider(), {
      processorPaymentId: intentId,
      now: new Date(expiresAt.getTime() + 1000),
    });
    expect(late).toMatchObject({ outcome: "closed", message: expect.stringContaining("expired") });
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "expired",
    });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
    expect(stripe.intents.get(intentId)).toMatchObject({ status: "canceled" });
    expect(
      await db().payment.findUniqueOrThrow({ where: { id: started.paymentId } }),
    ).toMatchObject({ status: "voided" });
    expect((await db().item.findUniqueOrThrow({ where: { id: itemId } })).status).toBe("active");
    // And the page opened after expiry cannot start another attempt.
    const clock = fixedClock(new Date(expiresAt.getTime() + 2000));
    await expect(
      pageCaller(clock).checkoutPage.startIntent({ id, accept_terms: true }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
  });
});

describe("a new attempt while an earlier intent is open", () => {
  it("cancels the earlier intent at Stripe, so it can no longer be confirmed", async () => {
    const { id } = await newCheckout();
    const first = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const second = await page.checkoutPage.startIntent({ id, accept_terms: true });
    expect(stripe.intents.get(intentIdOf(first.clientSecret))).toMatchObject({
      status: "canceled",
    });
    expect(await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } })).toMatchObject({
      status: "voided",
    });
    const late = await stripe.confirmAsBrowser(
      intentIdOf(first.clientSecret),
      first.clientSecret,
      card("4242424242424242"),
    );
    expect(late).toMatchObject({
      status: 400,
      body: { error: { code: "payment_intent_unexpected_state" } },
    });
    await stripe.confirmAsBrowser(
      intentIdOf(second.clientSecret),
      second.clientSecret,
      card("4242424242424242"),
    );
    expect(
      await page.checkoutPage.completeIntent({
        id,
        payment_intent: intentIdOf(second.clientSecret),
      }),
    ).toMatchObject({ outcome: "paid" });
    expect(captured(id)).toBe(1);
  });

  it("an earlier intent authorized anyway (its cancel lost the race) is released on completion and never places orders", async () => {
    const { id } = await newCheckout();
    const first = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const firstIntent = intentIdOf(first.clientSecret);
    // The cancel of the earlier intent never reaches Stripe (three tries: the client's two retries), and the other tab confirms it.
    stripe.dropNextRequests(3);
    await page.checkoutPage.startIntent({ id, accept_terms: true });
    expect(await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } })).toMatchObject({
      status: "voided",
    });
    await stripe.confirmAsBrowser(firstIntent, first.clientSecret, card("4242424242424242"));
    expect(stripe.intents.get(firstIntent)).toMatchObject({ status: "requires_capture" });
    expect(
      await completeCheckoutIntent(db(), paymentProvider(), {
        processorPaymentId: firstIntent,
        now: new Date(),
      }),
    ).toMatchObject({ outcome: "declined", message: expect.stringContaining("replaced") });
    expect(stripe.intents.get(firstIntent)).toMatchObject({ status: "canceled" });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
    expect((await db().checkout.findUniqueOrThrow({ where: { id } })).status).toBe(
      "awaiting_payment",
    );
  });
});

describe("a release Stripe fails (audit 2026-12-07)", () => {
  it("a hold under an attempt already replaced is not forgotten: the person is told it will be released, and the sweep releases it once due", async () => {
    const { id } = await newCheckout();
    const first = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const firstIntent = intentIdOf(first.clientSecret);
    stripe.dropNextRequests(3); // the earlier intent's cancel, as above
    await page.checkoutPage.startIntent({ id, accept_terms: true });
    await stripe.confirmAsBrowser(firstIntent, first.clientSecret, card("4242424242424242"));
    // The late answer's release fails too: the cancel and both of the client's retries.
    stripe.failNextWrites(3, 500);
    const now = new Date();
    expect(
      await completeCheckoutIntent(db(), paymentProvider(), {
        processorPaymentId: firstIntent,
        now,
      }),
    ).toMatchObject({
      outcome: "declined",
      message: expect.stringContaining("will be released within minutes"),
    });
    expect(stripe.intents.get(firstIntent)).toMatchObject({ status: "requires_capture" });
    const due = await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } });
    expect(due.releaseDueAt?.getTime()).toBeGreaterThan(now.getTime());
    // Not before it is due; then released, once.
    await settlePayments({ db: db(), now });
    expect(stripe.intents.get(firstIntent)).toMatchObject({ status: "requires_capture" });
    await settlePayments({ db: db(), now: new Date(now.getTime() + 61_000) });
    expect(stripe.intents.get(firstIntent)).toMatchObject({ status: "canceled" });
    expect(
      (await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } })).releaseDueAt,
    ).toBeNull();
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
  });
});

describe("Stripe not answering the page's return (audit 2026-12-07)", () => {
  it("is 409 payment_in_progress, never a 500; the return asked again pays once", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    await stripe.confirmAsBrowser(intentId, started.clientSecret, card("4242424242424242"));
    stripe.dropNextRequests(3); // the retrieve and both of the client's retries
    await expect(
      page.checkoutPage.completeIntent({ id, payment_intent: intentId }),
    ).rejects.toMatchObject({ cause: { code: "payment_in_progress" } });
    expect(await page.checkoutPage.completeIntent({ id, payment_intent: intentId })).toMatchObject({
      outcome: "paid",
    });
    expect(captured(id)).toBe(1);
  });
});

describe("the safety net for intents left awaiting the person (neither the browser's return nor the webhook arrived)", () => {
  const afterAttempt = (ms: number) => new Date(Date.now() + attemptTimeoutMs + ms);

  it("an intent the person confirmed at Stripe places the orders once and captures once", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    await stripe.confirmAsBrowser(intentId, started.clientSecret, card("4242424242424242"));
    // Younger than a whole processor call: left to the return and the webhook.
    await settleOpenIntents({ db: db(), now: new Date() });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
    await settleOpenIntents({ db: db(), now: afterAttempt(1000) });
    await settleOpenIntents({ db: db(), now: afterAttempt(2000) });
    expect(await db().checkout.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "paid",
      paidPaymentId: started.paymentId,
    });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(1);
    expect(captured(id)).toBe(1);
  });

  it("an intent nobody confirmed is left alone while the checkout is open, then cancelled at Stripe and voided once it closed", async () => {
    const { id } = await newCheckout();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    const intentId = intentIdOf(started.clientSecret);
    await settleOpenIntents({ db: db(), now: afterAttempt(1000) });
    expect(
      await db().payment.findUniqueOrThrow({ where: { id: started.paymentId } }),
    ).toMatchObject({ status: "requires_action" });
    expect(stripe.intents.get(intentId)).toMatchObject({ status: "requires_payment_method" });
    await db().checkout.update({ where: { id }, data: { status: "expired" } });
    // The first ask backed the row off for 30 s.
    await settleOpenIntents({ db: db(), now: afterAttempt(40_000) });
    expect(
      await db().payment.findUniqueOrThrow({ where: { id: started.paymentId } }),
    ).toMatchObject({ status: "voided" });
    expect(stripe.intents.get(intentId)).toMatchObject({ status: "canceled" });
    const late = await stripe.confirmAsBrowser(
      intentId,
      started.clientSecret,
      card("4242424242424242"),
    );
    expect(late).toMatchObject({ status: 400 });
    expect(await db().order.count({ where: { checkoutId: id } })).toBe(0);
  });
});

describe("a request Stripe refuses outright (a rolled key)", () => {
  it("the Payment Element's step and the card step say so (409 processor_refused, never a 500), close the attempt as not the bank's decline, and leave the checkout payable once the key works", async () => {
    const { id } = await newCheckout();
    stripe.revokeKey("sk_test_local");
    // More tries than the checkout's five declines: none of them is the bank's.
    for (let attempt = 0; attempt < 6; attempt++)
      await expect(page.checkoutPage.startIntent({ id, accept_terms: true })).rejects.toMatchObject(
        { cause: { code: "processor_refused" } },
      );
    await expect(
      page.checkoutPage.pay({
        id,
        accept_terms: true,
        method: {
          type: "card",
          number: "4242424242424242",
          exp_month: 12,
          exp_year: 2034,
          cvc: "123",
        },
        language: "en",
      }),
    ).rejects.toMatchObject({ cause: { code: "processor_refused" } });
    const attempts = await db().payment.findMany({ where: { checkoutId: id } });
    expect(attempts).toHaveLength(7);
    for (const attempt of attempts)
      expect(attempt).toMatchObject({ status: "declined", declineCode: "processor_refused" });
    // The operator puts a working key in place: the same checkout pays.
    process.env.STRIPE_SECRET_KEY = "sk_test_rolled";
    resetEnv();
    const started = await page.checkoutPage.startIntent({ id, accept_terms: true });
    expect(await confirmAndReturn(id, started)).toMatchObject({ outcome: "paid" });
  });
});
