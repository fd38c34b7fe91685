/**
 * An Idempotency-Key belongs to one client, one person and one operation (DESIGN.md, Idempotency;
 * RELIABILITY B3-04, C5): the same key sent by another client, for another person of the same
 * client, or to another operation is a new request that runs, never a replay of someone else's
 * answer and never `idempotency_key_reused`.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "./db";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";

const checkoutOf = async (token: string, key: string) => {
  const store = await createStore();
  const item = await createItem({ storeId: store.id, priceCents: 4_000 });
  const quote = await createQuoteVia(token, [{ item_id: item.id }]);
  const { response, text } = await createCheckoutVia(
    token,
    { quote_id: quote.body.quote_id, email: "buyer@example.ca" },
    key,
  );
  return { status: response.status, replayed: response.headers.get("idempotent-replayed"), text };
};

describe("an Idempotency-Key is scoped", () => {
  it("to its client: two partners sending one key each open their own checkout", async () => {
    const key = randomUUID();
    const [first, second] = [await createPartner(), await createPartner()];
    const a = await checkoutOf(await first.token(), key);
    const b = await checkoutOf(await second.token(), key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.replayed).toBeNull();
    expect(JSON.parse(b.text).checkout_id).not.toBe(JSON.parse(a.text).checkout_id);
  });

  it("to its person: two persons linked to one assistant each buy with the same key", async () => {
    const first = await agentWithPerson();
    const second = await agentWithPerson({ agent: first.agent });
    const key = randomUUID();
    const a = await buy(
      first.token,
      (await quoteOf(first.token, [(await directItem()).id])).quote_id,
      key,
    );
    const b = await buy(
      second.token,
      (await quoteOf(second.token, [(await directItem()).id])).quote_id,
      key,
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.purchase_id).not.toBe(a.body.purchase_id);
  });

  it("to its operation: one client's key opens a checkout and then buys, each once", async () => {
    const { token } = await agentWithPerson();
    const key = randomUUID();
    const checkout = await checkoutOf(token, key);
    const { quote_id: quoteId } = await quoteOf(token, [(await directItem()).id]);
    const purchase = await buy(token, quoteId, key);
    expect([checkout.status, purchase.status]).toEqual([201, 201]);
    expect(purchase.headers.get("idempotent-replayed")).toBeNull();
    // Within one operation the key still replays its first answer.
    const again = await buy(token, quoteId, key);
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(again.body.purchase_id).toBe(purchase.body.purchase_id);
  });
});

describe("a request refused before it runs stores nothing under its key (B3-06)", () => {
  const recordsOf = (key: string) => db().idempotencyRecord.count({ where: { key } });

  it("a 401 (a token gone wrong), then the same key with a good token buys", async () => {
    const { token } = await agentWithPerson();
    const { quote_id: quoteId } = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    expect((await buy("sat_not_a_token", quoteId, key)).status).toBe(401);
    expect(await recordsOf(key)).toBe(0);
    const bought = await buy(token, quoteId, key);
    expect([bought.status, bought.headers.get("idempotent-replayed")]).toEqual([201, null]);
  });

  it("a 422 for the body, then the same key with the body corrected buys", async () => {
    const { token } = await agentWithPerson();
    const { quote_id: quoteId } = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    const invalid = await buy(token, quoteId, key, { quote_id: 42 });
    expect([invalid.status, invalid.body.error.code]).toEqual([422, "invalid_request"]);
    expect(await recordsOf(key)).toBe(0);
    expect((await buy(token, quoteId, key)).status).toBe(201);
  });

  it("the partner's rate limit (429): nothing is stored under the key, which stays free for when the window resets", async () => {
    const { token } = await agentWithPerson();
    const { quote_id: quoteId } = await quoteOf(token, [(await directItem()).id]);
    let limited = await buy(token, quoteId, randomUUID(), {});
    for (let calls = 0; limited.status !== 429 && calls < 130; calls++)
      limited = await buy(token, quoteId, randomUUID(), {});
    expect(limited.status).toBe(429);
    const key = randomUUID();
    const refused = await buy(token, quoteId, key);
    expect([refused.status, refused.body.error.code]).toEqual([429, "rate_limited"]);
    expect(await recordsOf(key)).toBe(0);
  });
});
