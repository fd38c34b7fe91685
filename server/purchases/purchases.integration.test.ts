/**
 * POST /purchases and GET /purchases/{id} through the REST route handlers with real linked tokens
 * (an agent registered like /oauth/register/agent, consent with purchase:write ticked): every
 * refusal with its status, both limits at their edges, the races (one quote, one item, one key),
 * who may buy at all, 402 requires_person with a working checkout, 202 processing then GET; a bank
 * slower than a transaction may stay open, and a process killed between the hold and its record.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createPerson, createStore } from "../../prisma/factories";
import { issueAccessToken } from "../auth/tokens";
import { randomId } from "../core/ids";
import { db } from "../platform/db";
import { sandboxProvider } from "../payments/sandbox";
import { slowBankAnswerMs, testCards } from "../payments/sandbox-cards";
import { cancelPurchase } from "./cancel-purchase";
import { reconcilePurchases } from "./reconcile-purchases";
import {
  agentWithPerson as setup,
  buy,
  directItem,
  getPurchase,
  quoteOf,
} from "../testing/agent-purchases";
import { torontoAddress } from "../testing/checkout-fixtures";
import { sandboxLedger } from "../testing/purchase-ledger";
import { callRoute } from "../testing/rest";
import { buyQuote } from "./buy-quote";
import { purchasesPerHour } from "./policy";
import { operationHandler } from "@/server/edges/rest/rest-router";

const getCheckoutRoute = operationHandler("GET /api/v1/checkout/sessions/{checkout_id}");

const cents = (amount: string) => Math.round(Number(amount) * 100);

describe("POST /purchases: a held purchase", () => {
  it("201 held with the Purchase shape; replay byte-identical; GET shows it", async () => {
    const { token, person } = await setup();
    const item = await directItem();
    const quote = await quoteOf(token, [item.id]);
    const key = randomUUID();
    const first = await buy(token, quote.quote_id, key);
    expect(first.status).toBe(201);
    expect(Object.keys(first.body)).toEqual([
      "purchase_id",
      "status",
      "order_number",
      "fulfilment",
      "totals",
      "cancel_until",
      "charges_at",
      "created_at",
      "checkout",
      "error",
    ]);
    expect(first.body).toMatchObject({
      status: "held",
      fulfilment: "processing",
      checkout: null,
      error: null,
      totals: { grand_total: quote.totals.grand_total },
    });
    expect(first.body.order_number).toMatch(/^SO-/);
    expect(first.body.charges_at).toBe(first.body.cancel_until);
    const again = await buy(token, quote.quote_id, key);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await buy(token, quote.quote_id, key, {
      quote_id: (await quoteOf(token, [(await directItem()).id])).quote_id,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_key_reused");
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
    const read = await getPurchase(token, first.body.purchase_id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(first.body);
  });

  it("the Idempotency-Key is required and at most 64 characters; unknown body fields are a 422", async () => {
    const { token } = await setup();
    const quote = await quoteOf(token, [(await directItem()).id]);
    expect((await buy(token, quote.quote_id, null)).body.error.fields).toHaveProperty(
      "Idempotency-Key",
    );
    expect((await buy(token, quote.quote_id, "k".repeat(65))).status).toBe(422);
    const massAssigned = await buy(token, quote.quote_id, randomUUID(), {
      quote_id: quote.quote_id,
      amount: "0.01",
      status: "paid",
    });
    expect(massAssigned.status).toBe(422);
    expect(await db().purchase.count({ where: { quoteId: quote.quote_id } })).toBe(0);
  });
});

describe("POST /purchases: stock", () => {
  it("the held purchase reserves the item; cancelling it gives the item back", async () => {
    const { token } = await setup();
    const item = await directItem();
    const made = await buy(token, (await quoteOf(token, [item.id])).quote_id);
    const quantity = async () =>
      (await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity;
    expect(await quantity()).toBe(0);
    const cancelled = await cancelPurchase(db(), sandboxProvider(), {
      id: made.body.purchase_id,
      now: new Date(),
      by: "person",
    });
    expect(cancelled).toEqual({
      id: made.body.purchase_id,
      status: "cancelled",
      alreadyCancelled: false,
      reason: "cancelled_by_person",
    });
    expect(await quantity()).toBe(1);
    expect((await getPurchase(token, made.body.purchase_id)).body).toMatchObject({
      status: "cancelled",
      error: null,
      charges_at: null,
    });
  });
});

describe("POST /purchases: refusals, each with its status, nothing held", () => {
  const refusedWith = async (
    result: Awaited<ReturnType<typeof buy>>,
    status: number,
    code: string,
  ) => {
    expect({ status: result.status, code: result.body.error?.code }).toEqual({ status, code });
  };
  /** Nothing of the refused quote was bought, held or taken from stock (RELIABILITY B1-22). */
  const nothingHeldFor = async (quoteId: string, itemId: number) => {
    expect(await db().purchase.count({ where: { quoteId } })).toBe(0);
    const variants = await db().variant.findMany({ where: { itemId }, select: { quantity: true } });
    return variants.map((variant) => variant.quantity);
  };

  it("unknown quote or another person's quote: 404", async () => {
    const a = await setup();
    const b = await setup();
    const item = await directItem();
    const quote = await quoteOf(a.token, [item.id]);
    await refusedWith(await buy(b.token, quote.quote_id), 404, "not_found");
    await refusedWith(await buy(a.token, "quo_nothing"), 404, "not_found");
    expect(await nothingHeldFor(quote.quote_id, item.id)).toEqual([1]);
  });

  it("quote_expired, quote_already_purchased", async () => {
    const { token } = await setup();
    const item = await directItem();
    const quote = await quoteOf(token, [item.id]);
    await db().quote.update({
      where: { id: quote.quote_id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await refusedWith(await buy(token, quote.quote_id), 409, "quote_expired");
    expect(await nothingHeldFor(quote.quote_id, item.id)).toEqual([1]);
    const fresh = await quoteOf(token, [(await directItem()).id]);
    expect((await buy(token, fresh.quote_id)).status).toBe(201);
    await refusedWith(await buy(token, fresh.quote_id), 409, "quote_already_purchased");
  });

  it("store_requires_checkout_link and not_available_in_market are 403", async () => {
    const { token } = await setup();
    const linkStore = await createStore({ agentCheckout: "link" });
    const linkItem = await createItem({ storeId: linkStore.id });
    await refusedWith(
      await buy(token, (await quoteOf(token, [linkItem.id])).quote_id),
      403,
      "store_requires_checkout_link",
    );
    const quebec = {
      name: "Ana",
      line1: "1 rue Sainte-Catherine",
      city: "Montréal",
      province: "QC",
      postal_code: "H3B 1A1",
      country: "CA",
    };
    const inQuebec = await setup({ address: quebec });
    await refusedWith(
      await buy(
        inQuebec.token,
        (await quoteOf(inQuebec.token, [(await directItem()).id], quebec)).quote_id,
      ),
      403,
      "not_available_in_market",
    );
  });

  it("address_not_on_file: another address, or none saved; the same address spelled differently passes", async () => {
    const { token } = await setup();
    const elsewhere = { ...torontoAddress, line1: "200 King St W", postal_code: "M5H 3T4" };
    await refusedWith(
      await buy(token, (await quoteOf(token, [(await directItem()).id], elsewhere)).quote_id),
      409,
      "address_not_on_file",
    );
    const respelled = { ...torontoAddress, postal_code: "m5h2n2", province: "on", city: "TORONTO" };
    expect(
      (await buy(token, (await quoteOf(token, [(await directItem()).id], respelled)).quote_id))
        .status,
    ).toBe(201);
    const noAddress = await setup({ address: null });
    await refusedWith(
      await buy(
        noAddress.token,
        (await quoteOf(noAddress.token, [(await directItem()).id])).quote_id,
      ),
      409,
      "address_not_on_file",
    );
  });

  it("spending_limit_not_set (409), purchases_paused (403), no_saved_card (409)", async () => {
    const unset = await setup({ limits: null });
    await refusedWith(
      await buy(unset.token, (await quoteOf(unset.token, [(await directItem()).id])).quote_id),
      409,
      "spending_limit_not_set",
    );
    const paused = await setup({ paused: true });
    await refusedWith(
      await buy(paused.token, (await quoteOf(paused.token, [(await directItem()).id])).quote_id),
      403,
      "purchases_paused",
    );
    const noCard = await setup({ card: null });
    await refusedWith(
      await buy(noCard.token, (await quoteOf(noCard.token, [(await directItem()).id])).quote_id),
      409,
      "no_saved_card",
    );
  });

  it("price_changed, price_unavailable, item_unavailable; stock untouched", async () => {
    const { token } = await setup();
    const repriced = await directItem(2500);
    const quote = await quoteOf(token, [repriced.id]);
    await db().item.update({ where: { id: repriced.id }, data: { priceCents: 2600 } });
    await refusedWith(await buy(token, quote.quote_id), 409, "price_changed");
    expect(await nothingHeldFor(quote.quote_id, repriced.id)).toEqual([1]);
    const removed = await directItem();
    const removedQuote = await quoteOf(token, [removed.id]);
    await db().item.update({ where: { id: removed.id }, data: { status: "removed" } });
    await refusedWith(await buy(token, removedQuote.quote_id), 409, "price_unavailable");
    expect(await nothingHeldFor(removedQuote.quote_id, removed.id)).toEqual([1]);
    const taken = await directItem();
    const takenQuote = await quoteOf(token, [taken.id]);
    await db().variant.updateMany({ where: { itemId: taken.id }, data: { quantity: 0 } });
    const refused = await buy(token, takenQuote.quote_id);
    await refusedWith(refused, 409, "item_unavailable");
    expect(await nothingHeldFor(takenQuote.quote_id, taken.id)).toEqual([0]);
    expect(refused.body.error.items).toEqual([{ item_id: taken.id, size: "M" }]);
  });

  it("a refusal is stored under its key and replayed byte for byte", async () => {
    const { token, person } = await setup({ paused: true });
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const first = await buy(token, quote.quote_id, key);
    expect(first.status).toBe(403);
    // Unpaused since: the same key still answers what it answered (a new key would buy).
    await db().person.update({ where: { id: person.id }, data: { purchasesPaused: false } });
    const again = await buy(token, quote.quote_id, key);
    expect([again.status, again.text]).toEqual([first.status, first.text]);
  });
});

describe("POST /purchases: spending limits at their edges", () => {
  it("per order: exactly the limit passes; one cent over is over_spending_limit with limit and room", async () => {
    const probe = await setup();
    const item = await directItem(2500);
    const total = cents((await quoteOf(probe.token, [item.id])).totals.grand_total.amount);
    const exact = await setup({ limits: [total, total * 10] });
    expect(
      (await buy(exact.token, (await quoteOf(exact.token, [(await directItem(2500)).id])).quote_id))
        .status,
    ).toBe(201);
    const under = await setup({ limits: [total - 1, total * 10] });
    const refused = await buy(
      under.token,
      (await quoteOf(under.token, [(await directItem(2500)).id])).quote_id,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "over_spending_limit",
      limit: { amount: ((total - 1) / 100).toFixed(2), currency: "CAD" },
      room: { amount: ((total - 1) / 100).toFixed(2), currency: "CAD" },
    });
  });

  it("30 days: held purchases count; landing exactly on the limit passes, one cent over is refused with the room left", async () => {
    const probe = await setup();
    const total = cents(
      (await quoteOf(probe.token, [(await directItem(2500)).id])).totals.grand_total.amount,
    );
    const exact = await setup({ limits: [total, total * 2] });
    for (let index = 0; index < 2; index++)
      expect(
        (
          await buy(
            exact.token,
            (await quoteOf(exact.token, [(await directItem(2500)).id])).quote_id,
          )
        ).status,
      ).toBe(201);
    const third = await buy(
      exact.token,
      (await quoteOf(exact.token, [(await directItem(2500)).id])).quote_id,
    );
    expect(third.body.error).toMatchObject({
      code: "over_spending_limit",
      limit: { amount: ((total * 2) / 100).toFixed(2) },
      room: { amount: "0.00" },
    });
    const short = await setup({ limits: [total, total * 2 - 1] });
    expect(
      (await buy(short.token, (await quoteOf(short.token, [(await directItem(2500)).id])).quote_id))
        .status,
    ).toBe(201);
    const over = await buy(
      short.token,
      (await quoteOf(short.token, [(await directItem(2500)).id])).quote_id,
    );
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({
      code: "over_spending_limit",
      room: { amount: ((total - 1) / 100).toFixed(2) },
    });
  });

  it("two concurrent purchases that each fit but not together: exactly one is held", async () => {
    const probe = await setup();
    const total = cents(
      (await quoteOf(probe.token, [(await directItem(2500)).id])).totals.grand_total.amount,
    );
    const { token, person } = await setup({ limits: [total, total * 2 - 1] });
    const quotes = [
      await quoteOf(token, [(await directItem(2500)).id]),
      await quoteOf(token, [(await directItem(2500)).id]),
    ];
    const results = await Promise.all(quotes.map((quote) => buy(token, quote.quote_id)));
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    expect(results.find((result) => result.status === 409)!.body.error.code).toBe(
      "over_spending_limit",
    );
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
  });
});

describe("POST /purchases: races", () => {
  it("two concurrent purchases of one quote: one held, the other quote_already_purchased; one hold", async () => {
    const { token } = await setup();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const results = await Promise.all([buy(token, quote.quote_id), buy(token, quote.quote_id)]);
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    expect(results.find((result) => result.status === 409)!.body.error.code).toBe(
      "quote_already_purchased",
    );
    expect(await db().purchase.count({ where: { quoteId: quote.quote_id } })).toBe(1);
  });

  it("two concurrent purchases of one quantity-one item through different quotes: one wins", async () => {
    const item = await directItem();
    const a = await setup();
    const b = await setup();
    const [quoteA, quoteB] = [await quoteOf(a.token, [item.id]), await quoteOf(b.token, [item.id])];
    const results = await Promise.all([
      buy(a.token, quoteA.quote_id),
      buy(b.token, quoteB.quote_id),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    expect(results.find((result) => result.status === 409)!.body.error.code).toBe(
      "item_unavailable",
    );
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(0);
  });

  it("fifty people at once for one quantity-one item: one holds it, 49 are told item_unavailable with nothing bought or held, the stock never below zero (B3-09)", async () => {
    const item = await directItem();
    const buyers = await Promise.all(Array.from({ length: 50 }, () => setup()));
    const quotes = await Promise.all(buyers.map(({ token }) => quoteOf(token, [item.id])));
    const results = await Promise.all(
      buyers.map(({ token }, index) => buy(token, quotes[index].quote_id)),
    );
    const held = results.filter((result) => result.status === 201);
    expect(held).toHaveLength(1);
    const refused = results.filter((result) => result.status !== 201);
    expect(new Set(refused.map((result) => `${result.status} ${result.body.error?.code}`))).toEqual(
      new Set(["409 item_unavailable"]),
    );
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(0);
    const purchases = await db().purchase.findMany({
      where: { quoteId: { in: quotes.map((quote) => quote.quote_id) } },
      select: { id: true },
    });
    expect(purchases.map((purchase) => purchase.id)).toEqual([held[0].body.purchase_id]);
    expect(await sandboxLedger(held[0].body.purchase_id)).toMatchObject({ holds: 1, captures: 0 });
  }, 120_000);

  it("the same key ten times in parallel: one purchase, one hold in the sandbox ledger", async () => {
    const { token, person } = await setup();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => buy(token, quote.quote_id, key)),
    );
    for (const result of results) expect([201, 409]).toContain(result.status);
    const held = results.filter((result) => result.status === 201);
    expect(held.length).toBeGreaterThanOrEqual(1);
    for (const result of results.filter((result) => result.status === 409))
      expect(result.body.error.code).toBe("idempotency_key_in_use");
    const purchases = await db().purchase.findMany({ where: { personId: person.id } });
    expect(purchases).toHaveLength(1);
    expect(await sandboxLedger(purchases[0].id)).toMatchObject({ holds: 1, status: "authorized" });
  });

  it(`too_many_purchases: the ${purchasesPerHour + 1}th purchase within an hour is 429 with Retry-After, not kept under its key: once the hour allows, the same key buys (B3-06)`, async () => {
    const { token, person } = await setup();
    for (let index = 0; index < purchasesPerHour; index++)
      expect(
        (await buy(token, (await quoteOf(token, [(await directItem(100)).id])).quote_id)).status,
      ).toBe(201);
    const quote = await quoteOf(token, [(await directItem(100)).id]);
    const key = randomUUID();
    const refused = await buy(token, quote.quote_id, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too_many_purchases");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    // The hour passes for the ten purchases before it.
    await db().purchase.updateMany({
      where: { personId: person.id },
      data: { createdAt: new Date(Date.now() - 61 * 60_000) },
    });
    const retried = await buy(token, quote.quote_id, key);
    expect([retried.status, retried.body.status]).toEqual([201, "held"]);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("POST /purchases: who may buy", () => {
  it("a client-credentials token is refused 403 (no person)", async () => {
    const partner = await createPartner({
      scopes: ["catalog:read", "checkout:write", "purchase:write"],
    });
    const result = await buy(await partner.token(), "quo_x");
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe("insufficient_scope");
  });

  it("a partner (non-agent) client with a person's token is agent_purchases_unavailable", async () => {
    const { person } = await createPerson();
    const partner = await createPartner({
      scopes: ["catalog:read", "checkout:write", "purchase:write"],
      linking: true,
    });
    const { token } = await issueAccessToken(db(), {
      clientId: partner.client.id,
      personId: person.id,
      scopes: ["purchase:write"],
      now: new Date(),
    });
    const result = await buy(token, "quo_x");
    expect([result.status, result.body.error.code]).toEqual([403, "agent_purchases_unavailable"]);
  });

  it("a person who did not tick purchase:write: the token lacks it, 403 insufficient_scope", async () => {
    const { token } = await setup({ tick: [] });
    const result = await buy(token, "quo_x");
    expect([result.status, result.body.error.code]).toEqual([403, "insufficient_scope"]);
  });

  it("an agent switched off (ops client:set --purchases off) is agent_purchases_unavailable until switched on", async () => {
    const { token, agent } = await setup();
    const quote = await quoteOf(token, [(await directItem()).id]);
    await db().apiClient.update({ where: { id: agent.id }, data: { purchasesEnabled: false } });
    const refused = await buy(token, quote.quote_id);
    expect([refused.status, refused.body.error.code]).toEqual([403, "agent_purchases_unavailable"]);
    await db().apiClient.update({ where: { id: agent.id }, data: { purchasesEnabled: true } });
    expect((await buy(token, quote.quote_id)).status).toBe(201);
  });

  it("GET of another person's purchase is 404", async () => {
    const a = await setup();
    const b = await setup();
    const made = await buy(a.token, (await quoteOf(a.token, [(await directItem()).id])).quote_id);
    expect((await getPurchase(b.token, made.body.purchase_id)).status).toBe(404);
    expect((await getPurchase(a.token, "pur_nothing")).status).toBe(404);
  });
});

describe("POST /purchases: the bank's other answers", () => {
  it("declined card: 402 requires_person with a working checkout link, nothing held", async () => {
    const { token } = await setup({ card: testCards.declined });
    const item = await directItem();
    const quote = await quoteOf(token, [item.id]);
    const result = await buy(token, quote.quote_id);
    expect(result.status).toBe(402);
    expect(result.body).toMatchObject({
      status: "requires_person",
      charges_at: null,
      error: { code: "card_declined" },
    });
    expect(result.body.checkout.checkout_url).toBe(
      `http://localhost:3000/checkout/${result.body.checkout.checkout_id}`,
    );
    const checkout = await callRoute(getCheckoutRoute, {
      path: `/checkout/sessions/${result.body.checkout.checkout_id}`,
      token,
      params: { checkout_id: result.body.checkout.checkout_id },
    });
    expect(checkout.status).toBe(200);
    expect(await checkout.json()).toMatchObject({
      status: "awaiting_payment",
      totals: { grand_total: quote.totals.grand_total },
    });
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(0);
    expect((await getPurchase(token, result.body.purchase_id)).body).toEqual(result.body);
  });

  it("a saved card the processor does not find on the person's customer: 409 card_not_on_this_account, nothing held", async () => {
    const { token, person } = await setup();
    const other = await sandboxProvider().saveMethod({
      idempotencyKey: randomId("save_"),
      card: { type: "card", number: testCards.succeeds, expMonth: 12, expYear: 2031, cvc: "123" },
    });
    await db().savedCard.update({
      where: { personId: person.id },
      data: { paymentMethodId: other.paymentMethodId },
    });
    const item = await directItem();
    const result = await buy(token, (await quoteOf(token, [item.id])).quote_id);
    expect([result.status, result.body.error.code]).toEqual([409, "card_not_on_this_account"]);
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(1);
    const purchase = await db().purchase.findFirstOrThrow({ where: { personId: person.id } });
    expect((await getPurchase(token, purchase.id)).body).toMatchObject({
      status: "requires_person",
      checkout: null,
      error: { code: "card_not_on_this_account" },
    });
  });

  it("late bank (4000 0000 0000 0408): 202 processing, then GET follows it after reconciliation", async () => {
    const { token } = await setup({ card: testCards.answersLate });
    const result = await buy(token, (await quoteOf(token, [(await directItem()).id])).quote_id);
    expect(result.status).toBe(202);
    expect(result.body).toMatchObject({ status: "processing", order_number: null, error: null });
    await reconcilePurchases(db(), {
      now: new Date(Date.now() + 120_000),
      provider: sandboxProvider(),
    });
    const read = await getPurchase(token, result.body.purchase_id);
    expect(read.body).toMatchObject({
      purchase_id: result.body.purchase_id,
      status: "refused",
      error: { code: "bank_no_answer" },
    });
  });
});

describe("POST /purchases: the processor is asked outside any transaction", () => {
  /** Sessions of this test's database sitting in an open transaction. */
  const openTransactions = async () =>
    Number(
      (
        await db().$queryRaw<
          { count: bigint }[]
        >`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`
      )[0].count,
    );

  it(`a bank slower than the 5 s transaction timeout (${slowBankAnswerMs} ms): no transaction open meanwhile, a duplicate is 409 in use, then 201 held and replays`, async () => {
    const { token, person } = await setup({ card: testCards.answersSlowly });
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const started = buy(token, quote.quote_id, key);
    // Wait until the purchase is written and the hold placed: the request is now waiting on the bank.
    await expect
      .poll(() => db().purchase.count({ where: { personId: person.id } }), { timeout: 5_000 })
      .toBe(1);
    await expect
      .poll(
        async () =>
          (
            await sandboxLedger(
              (await db().purchase.findFirstOrThrow({ where: { personId: person.id } })).id,
            )
          ).holds,
        { timeout: 5_000 },
      )
      .toBe(1);
    expect(await openTransactions()).toBe(0);
    const duplicate = await buy(token, quote.quote_id, key);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe("idempotency_key_in_use");
    expect(duplicate.headers.get("retry-after")).toBe("1");
    const first = await started;
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: "held", error: null });
    expect(await sandboxLedger(first.body.purchase_id)).toMatchObject({
      status: "authorized",
      holds: 1,
    });
    const replay = await buy(token, quote.quote_id, key);
    expect([replay.status, replay.text, replay.headers.get("idempotent-replayed")]).toEqual([
      201,
      first.text,
      "true",
    ]);
  }, 30_000);

  it("a process killed between the hold and its record: the key answers 409 in use, then the staged 202; reconciliation releases the hold; never a second hold", async () => {
    const { token, person, agent } = await setup();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const crash = async () => {
      throw new Error("process killed");
    };
    const buyer = { db: db(), now: new Date(), clientId: agent.id, personId: person.id };
    await expect(
      buyQuote(
        buyer,
        { quote_id: quote.quote_id, idempotency_key: key },
        { afterAuthorize: crash },
      ),
    ).rejects.toThrow("process killed");
    const purchase = await db().purchase.findFirstOrThrow({ where: { personId: person.id } });
    expect(purchase.status).toBe("processing");
    expect(await sandboxLedger(purchase.id)).toMatchObject({ status: "authorized", holds: 1 });
    // The retry comes at once: the first request may still be running.
    const retry = await buy(token, quote.quote_id, key);
    expect([retry.status, retry.body.error.code, retry.headers.get("retry-after")]).toEqual([
      409,
      "idempotency_key_in_use",
      "1",
    ]);
    const later = new Date(Date.now() + 120_000);
    await reconcilePurchases(db(), { now: later, provider: sandboxProvider() });
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "voided",
      holds: 1,
      captures: 0,
      releases: 1,
    });
    // Two minutes on, the claim is abandoned: the key answers what the dead request staged, the same purchase.
    const replay = await buyQuote(
      { ...buyer, now: later },
      { quote_id: quote.quote_id, idempotency_key: key },
    );
    expect(replay).toMatchObject({
      replayed: true,
      result: { status: 202, body: { purchase_id: purchase.id, status: "processing" } },
    });
    expect((await getPurchase(token, purchase.id)).body).toMatchObject({
      status: "refused",
      error: { code: "bank_no_answer" },
    });
    // A new key finds the quote bought; the ledger still has the one hold.
    expect((await buy(token, quote.quote_id)).body.error.code).toBe("quote_already_purchased");
    expect(
      await db().sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `${purchase.id}:` } },
      }),
    ).toBe(1);
  });
});
