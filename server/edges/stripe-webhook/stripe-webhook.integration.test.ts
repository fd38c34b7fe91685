/**
 * POST /stripe/webhook against the local Stripe-shaped server, events signed with the real `stripe`
 * package: an event delivered twice is acted on once; events out of order and before the browser
 * returns place a checkout's orders once; a purchase whose authorize answer was lost is completed
 * once; bad signatures, oversized bodies and rotated secrets; unknown types ignored. Every state
 * comes from the shaped server (Stripe's API), never from the event's copy of the object.
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAgent,
  createItem,
  createPartner,
  createPerson,
  createStore,
} from "../../../prisma/factories";
import { createPurchasableQuote } from "../../../prisma/factories/purchases";
import { randomId } from "../../core/ids";
import { db } from "../../platform/db";
import { authorizePayment } from "../../payments/payment-steps";
import type { PaymentProvider } from "../../payments/provider";
import { testCards } from "../../payments/sandbox-cards";
import { stripeProvider } from "../../payments/stripe";
import { holdSandboxPurchase } from "../../purchases/hold-sandbox-purchase";
import { copyEmailKey } from "../../purchases/purchase-emails";
import { completeCardSetup } from "../../accounts/complete-card-setup";
import { startAttempt } from "../../checkout/hosted/payment-attempt";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";
import { pageCaller } from "../../testing/page-caller";
import { startStripeShapedServer } from "../../testing/stripe-shaped-server";
import { handleStripeWebhook, maxStripeEventBytes } from "./endpoint";

const current = `whsec_${randomBytes(24).toString("hex")}`;
const previous = `whsec_${randomBytes(24).toString("hex")}`;
let shaped: Awaited<ReturnType<typeof startStripeShapedServer>>;
let provider: ReturnType<typeof stripeProvider>;
let token: string;
let stores: number[];

beforeAll(async () => {
  shaped = await startStripeShapedServer();
  provider = stripeProvider({ secretKey: "sk_test_webhooks", apiBase: shaped.url });
  token = await (await createPartner()).token();
  stores = [(await createStore()).id, (await createStore({ freeShippingThresholdCents: null })).id];
});

afterAll(() => shaped.close());

type Json = Record<string, unknown>;

/** A Stripe event as Stripe sends it, with a snapshot of its object (which the service must not trust). */
const eventOf = (type: string, object: Json, id = `evt_${randomBytes(12).toString("hex")}`) => ({
  id,
  object: "event",
  api_version: "2025-10-29",
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object: structuredClone(object) },
});

const sign = (payload: string, secret = current) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

/** Delivers `body` as Stripe would, to the route handler, with the secrets configured now. */
const deliver = async (
  body: string | Json,
  options: {
    signature?: string | null;
    secrets?: (string | undefined)[];
    provider?: PaymentProvider;
  } = {},
) => {
  const payload = typeof body === "string" ? body : JSON.stringify(body, null, 2);
  const signature = options.signature === undefined ? sign(payload) : options.signature;
  const request = new Request("http://localhost:3000/stripe/webhook", {
    method: "POST",
    body: payload,
    headers: {
      "content-type": "application/json; charset=utf-8",
      ...(signature === null ? {} : { "stripe-signature": signature }),
    },
  });
  const response = await handleStripeWebhook(request, {
    provider: () => options.provider ?? provider,
    secrets: () => options.secrets ?? [current, undefined],
  });
  return { status: response.status, body: (await response.json()) as Json };
};

const newCheckout = async () => {
  const items = [
    await createItem({ storeId: stores[0], priceCents: 5000 }),
    await createItem({ storeId: stores[1], priceCents: 3000 }),
  ];
  const quote = await createQuoteVia(
    token,
    items.map((item) => ({ item_id: item.id })),
  );
  const { text } = await createCheckoutVia(token, {
    quote_id: quote.body.quote_id,
    email: "buyer@example.ca",
    first_name: "Ana",
  });
  return JSON.parse(text).checkout_id as string;
};

const cardOf = (number: string) => ({
  type: "card" as const,
  number,
  expMonth: 12,
  expYear: 2034,
  cvc: "123",
});

/** A checkout attempt whose PaymentIntent waits for the person's bank (3-D Secure): requires_action at Stripe. */
const attemptAwaitingAuthentication = async () => {
  const checkoutId = await newCheckout();
  const attempt = await startAttempt(db(), {
    checkoutId,
    method: "card",
    cardLast4: "3155",
    now: new Date(),
  });
  const result = await authorizePayment(db(), provider, {
    payment: attempt,
    method: cardOf(testCards.requiresAuthentication),
    description: `Checkout ${checkoutId}`,
  });
  if (result.kind !== "requires_action")
    throw new Error(`expected requires_action, got ${result.kind}`);
  return { checkoutId, attempt, intentId: result.processorPaymentId };
};

/**
 * A checkout attempt the person authenticated with their bank (3-D Secure through Stripe.js): its
 * PaymentIntent is requires_capture at Stripe, and the browser has not come back to tell us.
 */
const authenticatedAttempt = async () => {
  const awaiting = await attemptAwaitingAuthentication();
  shaped.completeAuthentication(awaiting.intentId);
  return awaiting;
};

const checkoutState = async (checkoutId: string) => {
  const checkout = await db().checkout.findUniqueOrThrow({
    where: { id: checkoutId },
    select: { status: true, orderNumber: true, paidPaymentId: true, grandTotalCents: true },
  });
  const orders = await db().order.findMany({
    where: { checkoutId },
    select: { number: true },
    orderBy: { number: "asc" },
  });
  const payments = await db().payment.findMany({
    where: { checkoutId },
    select: { id: true, status: true },
    orderBy: { attempt: "asc" },
  });
  return {
    checkout,
    orders: orders.map((order) => order.number),
    payments: payments.map((payment) => payment.status),
  };
};

const intent = (id: string) => shaped.intents.get(id) as Json;

describe("POST /stripe/webhook: checkout payments", () => {
  it("places the order once when the intent is authorized before the browser returns; the browser's return then changes nothing", async () => {
    const { checkoutId, attempt, intentId } = await authenticatedAttempt();
    expect((await checkoutState(checkoutId)).checkout.status).toBe("awaiting_payment");

    const answer = await deliver(
      eventOf("payment_intent.amount_capturable_updated", intent(intentId)),
    );

    expect(answer).toEqual({ status: 200, body: { received: true, outcome: "processed" } });
    const state = await checkoutState(checkoutId);
    expect(state.checkout).toMatchObject({
      status: "paid",
      paidPaymentId: attempt.id,
      orderNumber: expect.stringMatching(/^SO-/),
    });
    expect(state.orders).toEqual([
      `${state.checkout.orderNumber}-1`,
      `${state.checkout.orderNumber}-2`,
    ]);
    expect(state.payments).toEqual(["captured"]);
    expect(intent(intentId)).toMatchObject({
      status: "succeeded",
      amount_received: state.checkout.grandTotalCents,
    });
    expect(
      await db().emailMessage.count({ where: { dedupeKey: `order-confirmation:${checkoutId}` } }),
    ).toBe(1);
    // The person comes back from their bank's page: the step is closed, nothing moves.
    await expect(
      pageCaller().checkoutPage.confirmAuthentication({
        id: checkoutId,
        payment_id: attempt.id,
        authenticated: true,
      }),
    ).rejects.toMatchObject({ cause: { code: "checkout_closed" } });
    expect(await checkoutState(checkoutId)).toEqual(state);
  });

  it("an event delivered twice is acted on once: the second delivery asks Stripe nothing and changes nothing", async () => {
    const { checkoutId, intentId } = await authenticatedAttempt();
    const event = eventOf("payment_intent.amount_capturable_updated", intent(intentId));
    expect((await deliver(event)).body.outcome).toBe("processed");
    const after = await checkoutState(checkoutId);
    const requests = shaped.requestCount();

    // Stripe redelivers (our 200 was lost): same event id, a fresh signature.
    expect(await deliver(event)).toEqual({
      status: 200,
      body: { received: true, outcome: "duplicate" },
    });

    expect(shaped.requestCount()).toBe(requests);
    expect(await checkoutState(checkoutId)).toEqual(after);
    expect(await db().stripeEvent.findMany({ where: { id: event.id } })).toEqual([
      expect.objectContaining({
        type: "payment_intent.amount_capturable_updated",
        objectId: intentId,
        paymentIntentId: intentId,
        processedAt: expect.any(Date),
        outcome: "checkout",
      }),
    ]);
  });

  it("out of order: succeeded arrives before amount_capturable_updated; the state is Stripe's, the order is placed and captured once", async () => {
    const { checkoutId, attempt, intentId } = await authenticatedAttempt();
    const authorizedSnapshot = intent(intentId);
    // Stripe created amount_capturable_updated first, but delivers succeeded first (its snapshot says succeeded,
    // while at Stripe the intent is still requires_capture: only our capture can move it).
    const older = eventOf("payment_intent.amount_capturable_updated", authorizedSnapshot);
    const newer = eventOf("payment_intent.succeeded", {
      ...authorizedSnapshot,
      status: "succeeded",
      amount_received: authorizedSnapshot.amount,
    });

    expect((await deliver(newer)).status).toBe(200);
    const paid = await checkoutState(checkoutId);
    expect(paid.checkout).toMatchObject({ status: "paid", paidPaymentId: attempt.id });
    expect(paid.payments).toEqual(["captured"]);
    expect(intent(intentId).status).toBe("succeeded");

    expect((await deliver(older)).status).toBe(200);
    expect(await checkoutState(checkoutId)).toEqual(paid);
    expect(paid.orders).toHaveLength(2);
  });

  it("out of order: canceled arrives before a stale amount_capturable_updated; the attempt is voided once, nothing placed or captured, the stale event changes nothing (B3-17)", async () => {
    const { checkoutId, intentId } = await attemptAwaitingAuthentication();
    // A snapshot as Stripe would have sent it had the person authenticated, delivered late.
    const stale = eventOf("payment_intent.amount_capturable_updated", {
      ...intent(intentId),
      status: "requires_capture",
      amount_capturable: intent(intentId).amount,
    });
    // The person never authenticated: Stripe cancelled the intent.
    Object.assign(intent(intentId), { status: "canceled", next_action: null });
    const canceled = eventOf("payment_intent.canceled", intent(intentId));

    expect((await deliver(canceled)).body.outcome).toBe("processed");
    const voided = await checkoutState(checkoutId);
    expect(voided).toMatchObject({
      checkout: { status: "awaiting_payment", paidPaymentId: null },
      orders: [],
      payments: ["voided"],
    });
    expect((await deliver(stale)).status).toBe(200);
    expect(await checkoutState(checkoutId)).toEqual(voided);
    expect(intent(intentId).status).toBe("canceled");
    expect((await deliver(canceled)).body.outcome).toBe("duplicate");
  });

  it("a declined authentication's payment_failed records the decline; the checkout stays payable", async () => {
    const { checkoutId, attempt, intentId } = await attemptAwaitingAuthentication();
    Object.assign(intent(intentId), {
      status: "requires_payment_method",
      next_action: null,
      last_payment_error: { type: "card_error", code: "payment_intent_authentication_failure" },
    });

    expect((await deliver(eventOf("payment_intent.payment_failed", intent(intentId)))).status).toBe(
      200,
    );

    expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      status: "declined",
      declineCode: "payment_intent_authentication_failure",
    });
    expect((await checkoutState(checkoutId)).checkout.status).toBe("awaiting_payment");
  });

  it("a PaymentIntent that is none of our payments is answered 200 and recorded as not ours", async () => {
    const foreign = await provider.authorize({
      idempotencyKey: `other-app-${randomBytes(4).toString("hex")}`,
      amountCents: 1200,
      method: cardOf(testCards.succeeds),
      description: "another integration",
    });
    const event = eventOf("payment_intent.amount_capturable_updated", intent(foreign.id));
    expect((await deliver(event)).status).toBe(200);
    expect(await db().stripeEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      outcome: "not_ours",
      processedAt: expect.any(Date),
    });
    expect(intent(foreign.id).status).toBe("requires_capture");
  });
});

describe("POST /stripe/webhook: failures and concurrent deliveries", () => {
  it("when acting fails the answer is 500 and nothing is marked processed; Stripe's retry then acts on it", async () => {
    const { checkoutId, intentId } = await authenticatedAttempt();
    const event = eventOf("payment_intent.amount_capturable_updated", intent(intentId));
    const down: PaymentProvider = {
      ...provider,
      retrieve: async () => {
        throw new Error("Stripe unreachable");
      },
    };

    expect((await deliver(event, { provider: down })).status).toBe(500);
    expect(await db().stripeEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      processedAt: null,
      claimedAt: null,
    });
    expect((await checkoutState(checkoutId)).checkout.status).toBe("awaiting_payment");

    expect(await deliver(event)).toEqual({
      status: 200,
      body: { received: true, outcome: "processed" },
    });
    expect((await checkoutState(checkoutId)).checkout.status).toBe("paid");
  });

  it("a second delivery of the same event while the first is acting is told to retry (409); the first acts once", async () => {
    const { checkoutId, intentId } = await authenticatedAttempt();
    const event = eventOf("payment_intent.amount_capturable_updated", intent(intentId));
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let retrieves = 0;
    const slow: PaymentProvider = {
      ...provider,
      retrieve: async (input) => {
        retrieves++;
        await gate;
        return provider.retrieve(input);
      },
    };

    const first = deliver(event, { provider: slow });
    await expect.poll(() => retrieves).toBe(1);
    const second = await deliver(event, { provider: slow });
    release();

    expect(second).toMatchObject({
      status: 409,
      body: { error: { code: "idempotency_key_in_use" } },
    });
    expect((await first).status).toBe(200);
    expect(retrieves).toBe(1);
    expect(await checkoutState(checkoutId)).toMatchObject({
      checkout: { status: "paid" },
      payments: ["captured"],
    });
    expect((await deliver(event)).body.outcome).toBe("duplicate");
  });
});

describe("POST /stripe/webhook: assistant purchases", () => {
  /** A purchase whose authorize reached Stripe (a hold) but whose answer was lost: `processing`, payment `authorizing` with no PaymentIntent id. */
  const purchaseWithLostAnswer = async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const { quote } = await createPurchasableQuote({ clientId: agent.id, personId: person.id });
    const saved = await provider.saveMethod({
      idempotencyKey: randomId("save_"),
      card: cardOf(testCards.succeeds),
    });
    shaped.delayNextResponse(1_500);
    const impatient = stripeProvider({
      secretKey: "sk_test_webhooks",
      apiBase: shaped.url,
      maxNetworkRetries: 0,
      timeoutMs: 300,
    });
    const id = await holdSandboxPurchase(db(), impatient, {
      clientId: agent.id,
      assistant: agent.name,
      personId: person.id,
      email: person.email,
      quoteId: quote.id,
      grandTotalCents: 5000,
      method: {
        type: "saved",
        customerId: saved.customerId,
        paymentMethodId: saved.paymentMethodId,
      },
      cardLast4: saved.cardLast4,
      now: new Date(),
    });
    const intentId = [...shaped.intents.values()].find(
      (candidate) =>
        (candidate.metadata as Record<string, string>).authorize_key === `${id}:authorize`,
    )!.id as string;
    return { id, intentId };
  };

  it("a hold whose answer was lost completes the processing purchase once (held, one copy email), found by the intent's authorize key", async () => {
    const { id, intentId } = await purchaseWithLostAnswer();
    expect(await db().purchase.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "processing",
    });
    expect(await db().payment.findUniqueOrThrow({ where: { purchaseId: id } })).toMatchObject({
      status: "authorizing",
      processorPaymentId: null,
    });

    expect(
      (await deliver(eventOf("payment_intent.amount_capturable_updated", intent(intentId)))).status,
    ).toBe(200);
    // Stripe sends another event about the same hold (a new id): nothing moves twice.
    expect(
      (await deliver(eventOf("payment_intent.amount_capturable_updated", intent(intentId)))).status,
    ).toBe(200);

    expect(await db().purchase.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "held",
      orderNumber: expect.stringMatching(/^SO-/),
      chargesAt: expect.any(Date),
    });
    expect(await db().payment.findUniqueOrThrow({ where: { purchaseId: id } })).toMatchObject({
      status: "authorized",
      processorPaymentId: intentId,
    });
    expect(await db().emailMessage.count({ where: { dedupeKey: copyEmailKey(id) } })).toBe(1);
    expect(
      [...shaped.intents.values()].filter(
        (candidate) =>
          (candidate.metadata as Record<string, string>).authorize_key === `${id}:authorize`,
      ),
    ).toHaveLength(1);
    expect(intent(intentId).status).toBe("requires_capture");
  });

  it("the hold's event arriving while POST /purchases is still recording Stripe's answer: held once, one copy email, one order", async () => {
    const { person } = await createPerson();
    const agent = await createAgent();
    const { quote } = await createPurchasableQuote({ clientId: agent.id, personId: person.id });
    const saved = await provider.saveMethod({
      idempotencyKey: randomId("save_"),
      card: cardOf(testCards.succeeds),
    });
    let webhook: Awaited<ReturnType<typeof deliver>> | undefined;
    const id = await holdSandboxPurchase(db(), provider, {
      clientId: agent.id,
      assistant: agent.name,
      personId: person.id,
      email: person.email,
      quoteId: quote.id,
      grandTotalCents: 5000,
      method: {
        type: "saved",
        customerId: saved.customerId,
        paymentMethodId: saved.paymentMethodId,
      },
      cardLast4: saved.cardLast4,
      now: new Date(),
      // Stripe answered the request and sent its event; the event is handled before the request records the answer.
      afterAuthorize: async (purchaseId) => {
        const held = [...shaped.intents.values()].find(
          (candidate) =>
            (candidate.metadata as Record<string, string>).authorize_key ===
            `${purchaseId}:authorize`,
        )!;
        webhook = await deliver(eventOf("payment_intent.amount_capturable_updated", held));
      },
    });
    expect(webhook?.status).toBe(200);
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id } });
    expect(purchase).toMatchObject({ status: "held", orderNumber: expect.stringMatching(/^SO-/) });
    expect(await db().emailMessage.count({ where: { dedupeKey: copyEmailKey(id) } })).toBe(1);
    expect(
      (await db().order.findMany({ where: { purchaseId: id } })).map((order) => order.number),
    ).toEqual([`${purchase.orderNumber}-1`]);
    expect(await db().payment.findUniqueOrThrow({ where: { purchaseId: id } })).toMatchObject({
      status: "authorized",
    });
  });

  it("out of order: a capture's succeeded is recorded on the payment (guarded); the late amount_capturable_updated changes nothing", async () => {
    const { id, intentId } = await purchaseWithLostAnswer();
    const authorizedSnapshot = intent(intentId);
    expect(
      (await deliver(eventOf("payment_intent.amount_capturable_updated", authorizedSnapshot)))
        .status,
    ).toBe(200);
    // The charge at charges_at reached Stripe, and its answer was lost.
    await provider.capture({ idempotencyKey: `${id}:capture`, paymentId: intentId });

    expect((await deliver(eventOf("payment_intent.succeeded", intent(intentId)))).status).toBe(200);
    expect(
      (await deliver(eventOf("payment_intent.amount_capturable_updated", authorizedSnapshot)))
        .status,
    ).toBe(200);

    expect(await db().payment.findUniqueOrThrow({ where: { purchaseId: id } })).toMatchObject({
      status: "captured",
    });
    // The purchase moves through its own state machine (the charge reads the payment); the webhook never moves it back.
    expect((await db().purchase.findUniqueOrThrow({ where: { id } })).status).toBe("held");
    expect(await db().emailMessage.count({ where: { dedupeKey: copyEmailKey(id) } })).toBe(1);
  });
});

describe("POST /stripe/webhook: what is refused or ignored", () => {
  it("a bad or missing signature is 400: nothing recorded, nothing asked of Stripe, nothing changed", async () => {
    const { checkoutId, intentId } = await authenticatedAttempt();
    const before = await checkoutState(checkoutId);
    const requests = shaped.requestCount();
    const event = eventOf("payment_intent.amount_capturable_updated", intent(intentId));
    const payload = JSON.stringify(event);
    const tampered = JSON.stringify({ ...event, type: "payment_intent.succeeded" });

    const answers = [
      await deliver(payload, {
        signature: sign(payload, `whsec_${randomBytes(24).toString("hex")}`),
      }),
      await deliver(payload, { signature: null }),
      await deliver(payload, { signature: "t=1,v1=deadbeef" }),
      await deliver(tampered, { signature: sign(payload) }),
      // A valid signature made 10 minutes ago: a replay outside Stripe's tolerance.
      await deliver(payload, {
        signature: Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: current,
          timestamp: Math.floor(Date.now() / 1000) - 600,
        }),
      }),
    ];

    for (const answer of answers)
      expect(answer).toMatchObject({
        status: 400,
        body: { error: { code: "bad_request", message: expect.any(String) } },
      });
    expect(await db().stripeEvent.count({ where: { id: event.id } })).toBe(0);
    expect(shaped.requestCount()).toBe(requests);
    expect(await checkoutState(checkoutId)).toEqual(before);
    expect(intent(intentId).status).toBe("requires_capture");
  });

  it("without a configured secret every event is refused (400)", async () => {
    const event = eventOf("charge.refunded", {
      id: "ch_unsigned",
      object: "charge",
      payment_intent: "pi_unsigned",
    });
    expect(await deliver(event, { secrets: [undefined, undefined] })).toMatchObject({
      status: 400,
    });
    expect(await db().stripeEvent.count({ where: { id: event.id } })).toBe(0);
  });

  it("a body over the cap is 413, nothing recorded", async () => {
    const event = eventOf("charge.refunded", {
      id: "ch_big",
      object: "charge",
      payment_intent: "pi_big",
      description: "x".repeat(maxStripeEventBytes),
    });
    const answer = await deliver(event);
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "payload_too_large" } } });
    expect(await db().stripeEvent.count({ where: { id: event.id } })).toBe(0);
  });

  it("during a secret rotation both secrets verify; a third does not; after it only the new one does", async () => {
    const rotating = [current, previous];
    const signedWith = (secret: string) => {
      const event = eventOf("charge.refunded", {
        id: `ch_${randomBytes(6).toString("hex")}`,
        object: "charge",
        payment_intent: "pi_rotation",
      });
      const payload = JSON.stringify(event);
      return { event, payload, signature: sign(payload, secret) };
    };
    const byNew = signedWith(current);
    const byOld = signedWith(previous);
    const byNeither = signedWith(`whsec_${randomBytes(24).toString("hex")}`);
    expect(
      (await deliver(byNew.payload, { signature: byNew.signature, secrets: rotating })).status,
    ).toBe(200);
    expect(
      (await deliver(byOld.payload, { signature: byOld.signature, secrets: rotating })).status,
    ).toBe(200);
    expect(
      (await deliver(byNeither.payload, { signature: byNeither.signature, secrets: rotating }))
        .status,
    ).toBe(400);
    // The rotation is over: STRIPE_WEBHOOK_SECRET_PREVIOUS removed.
    const lateOld = signedWith(previous);
    expect(
      (
        await deliver(lateOld.payload, {
          signature: lateOld.signature,
          secrets: [current, undefined],
        })
      ).status,
    ).toBe(400);
    // Stripe itself, during its overlap, signs each delivery once per valid secret: either configuration verifies it.
    const both = signedWith(current);
    const timestamp = Math.floor(Date.now() / 1000);
    const v1 = (secret: string) =>
      /v1=(\w+)/.exec(
        Stripe.webhooks.generateTestHeaderString({ payload: both.payload, secret, timestamp }),
      )![1];
    const doubleSigned = `t=${timestamp},v1=${v1(current)},v1=${v1(previous)}`;
    expect(
      (await deliver(both.payload, { signature: doubleSigned, secrets: [previous, undefined] }))
        .status,
    ).toBe(200);
    expect(
      (await deliver(both.payload, { signature: doubleSigned, secrets: [current, undefined] })).body
        .outcome,
    ).toBe("duplicate");
    const recorded = await db().stripeEvent.findMany({
      where: { paymentIntentId: "pi_rotation" },
      select: { id: true, outcome: true },
    });
    expect(recorded.map((row) => row.id).sort()).toEqual(
      [byNew.event.id, byOld.event.id, both.event.id].sort(),
    );
    expect(recorded.every((row) => row.outcome === "not_ours")).toBe(true);
  });

  it("an unknown event type is answered 200 and ignored (not recorded, Stripe not asked)", async () => {
    const requests = shaped.requestCount();
    const event = eventOf("customer.created", { id: "cus_ignored", object: "customer" });
    expect(await deliver(event)).toEqual({
      status: 200,
      body: { received: true, outcome: "ignored" },
    });
    expect(await db().stripeEvent.count({ where: { id: event.id } })).toBe(0);
    expect(shaped.requestCount()).toBe(requests);
  });

  it("a refund or a dispute of a PaymentIntent not ours is recorded as an event, not_ours", async () => {
    const refunded = eventOf("charge.refunded", {
      id: "ch_refunded",
      object: "charge",
      payment_intent: "pi_refunded",
      amount_refunded: 500,
    });
    const disputed = eventOf("charge.dispute.created", {
      id: "du_disputed",
      object: "dispute",
      charge: "ch_disputed",
      payment_intent: { id: "pi_disputed", object: "payment_intent" },
    });
    expect((await deliver(refunded)).status).toBe(200);
    expect((await deliver(disputed)).status).toBe(200);
    expect(await db().stripeEvent.findUniqueOrThrow({ where: { id: refunded.id } })).toMatchObject({
      type: "charge.refunded",
      objectId: "ch_refunded",
      paymentIntentId: "pi_refunded",
      outcome: "not_ours",
    });
    expect(await db().stripeEvent.findUniqueOrThrow({ where: { id: disputed.id } })).toMatchObject({
      type: "charge.dispute.created",
      objectId: "du_disputed",
      paymentIntentId: "pi_disputed",
      outcome: "not_ours",
    });
  });

  it("a signed body that is not a Stripe event is 400", async () => {
    expect((await deliver('{"hello": "world"}')).status).toBe(400);
    expect((await deliver("not json")).status).toBe(400);
  });
});

describe("setup_intent.succeeded", () => {
  /** What Stripe.js sends for the Payment Element in setup mode. */
  const confirmSetup = async (clientSecret: string, number: string) => {
    const response = await fetch(
      `${shaped.url}/v1/setup_intents/${clientSecret.split("_secret_")[0]}/confirm`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: "pk_test_local",
          client_secret: clientSecret,
          "payment_method_data[type]": "card",
          "payment_method_data[card][number]": number,
          "payment_method_data[card][exp_month]": "11",
          "payment_method_data[card][exp_year]": "2033",
          "payment_method_data[card][cvc]": "123",
        }).toString(),
      },
    );
    expect(response.status).toBe(200);
  };
  const setupFor = async (person: { id: string; email: string }) => {
    const { processorCustomerId } = await db().person.findUniqueOrThrow({
      where: { id: person.id },
    });
    const setup = await provider.startCardSetup({
      idempotencyKey: randomId("setup_"),
      customerId: processorCustomerId ?? undefined,
      email: person.email,
      metadata: { person_id: person.id },
    });
    await db().person.update({
      where: { id: person.id },
      data: { processorCustomerId: setup.customerId },
    });
    return setup;
  };
  const savedCard = (personId: string) =>
    db().savedCard.findUnique({
      where: { personId },
      select: { paymentMethodId: true, last4: true },
    });

  it("saves the card the person confirmed when the page never came back; a late event of a setup replaced since changes nothing", async () => {
    const { person } = await createPerson();
    const first = await setupFor(person);
    await confirmSetup(first.clientSecret, "4242424242424242");
    const firstEvent = eventOf("setup_intent.succeeded", {
      id: first.setupId,
      object: "setup_intent",
    });
    expect((await deliver(firstEvent)).status).toBe(200);
    expect(
      await db().stripeEvent.findUniqueOrThrow({ where: { id: firstEvent.id } }),
    ).toMatchObject({ outcome: "card_saved" });
    const firstCard = await savedCard(person.id);
    expect(firstCard).toMatchObject({
      last4: "4242",
      paymentMethodId: shaped.setups.get(first.setupId)!.payment_method,
    });

    // A second card replaces it (the page came back this time) and the first is detached at Stripe.
    const second = await setupFor(person);
    await confirmSetup(second.clientSecret, "4242424242424242");
    await completeCardSetup(db(), provider, { setupIntentId: second.setupId, now: new Date() });
    const secondCard = await savedCard(person.id);
    expect(secondCard?.paymentMethodId).not.toBe(firstCard?.paymentMethodId);

    // Stripe delivers the first setup's event again, late: the detached first card is not saved back.
    expect(
      (
        await deliver(
          eventOf("setup_intent.succeeded", { id: first.setupId, object: "setup_intent" }),
        )
      ).status,
    ).toBe(200);
    expect(await savedCard(person.id)).toEqual(secondCard);
  });
});
