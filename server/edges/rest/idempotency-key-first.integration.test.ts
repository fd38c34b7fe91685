/**
 * An Idempotency-Key is checked before the body's references are resolved (DESIGN.md): the same key
 * with another body is 422 idempotency_key_reused, with `fields` naming the header as a missing
 * key's 422 does, even when the new body names a quote that does not exist (before: 404 not_found,
 * the key never looked at) or a shipping selection the quote has not (before: 422 invalid_request).
 * A key first sent with an unknown quote stores nothing, so a corrected retry still runs.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../../prisma/factories";
import { agentWithPerson, buy, directItem, quoteOf } from "../../testing/agent-purchases";
import { createCheckoutVia, createQuoteVia } from "../../testing/checkout-fixtures";

const reusedBody = {
  error: {
    code: "idempotency_key_reused",
    message: expect.any(String),
    fields: { "Idempotency-Key": expect.stringMatching(/different request/) },
  },
};

describe("POST /purchases: the key before the quote", () => {
  it("a real quote, then an unknown one under the same key: 422 idempotency_key_reused naming the header", async () => {
    const { token } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const key = randomUUID();
    expect((await buy(token, quote.quote_id, key)).status).toBe(201);
    const other = await buy(token, quote.quote_id, key, { quote_id: "quo_other" });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(reusedBody);
    const anotherQuote = await quoteOf(token, [(await directItem()).id]);
    const real = await buy(token, anotherQuote.quote_id, key);
    expect(real.status).toBe(422);
    expect(real.body).toEqual(reusedBody);
  });

  it("an unknown quote first is 404 and stores nothing: the same key then buys", async () => {
    const { token } = await agentWithPerson();
    const key = randomUUID();
    expect((await buy(token, "quo_other", key)).status).toBe(404);
    const quote = await quoteOf(token, [(await directItem()).id]);
    expect((await buy(token, quote.quote_id, key)).status).toBe(201);
  });
});

describe("POST /checkout/sessions: the key before the quote and its selections", () => {
  let token: string;
  let storeId: number;
  beforeAll(async () => {
    token = await (await createPartner()).token();
    storeId = (await createStore()).id;
  });
  const quoteId = async () =>
    (await createQuoteVia(token, [{ item_id: (await createItem({ storeId })).id }])).body
      .quote_id as string;

  it("a real quote, then an unknown quote or an unknown store's shipping: 422 idempotency_key_reused naming the header", async () => {
    const key = randomUUID();
    const first = await createCheckoutVia(
      token,
      { quote_id: await quoteId(), email: "a@example.ca" },
      key,
    );
    expect(first.response.status).toBe(201);
    for (const body of [
      { quote_id: "quo_other", email: "a@example.ca" },
      {
        quote_id: await quoteId(),
        email: "a@example.ca",
        shipping_selections: { "no-such-store": "standard" },
      },
      { quote_id: await quoteId(), email: "a@example.ca" },
    ]) {
      const reused = await createCheckoutVia(token, body, key);
      expect(reused.response.status).toBe(422);
      expect(JSON.parse(reused.text)).toEqual(reusedBody);
    }
  });

  it("an unknown quote first is 404 and stores nothing: the same key then creates the checkout", async () => {
    const key = randomUUID();
    const unknown = await createCheckoutVia(
      token,
      { quote_id: "quo_other", email: "a@example.ca" },
      key,
    );
    expect(unknown.response.status).toBe(404);
    const created = await createCheckoutVia(
      token,
      { quote_id: await quoteId(), email: "a@example.ca" },
      key,
    );
    expect(created.response.status).toBe(201);
  });
});
