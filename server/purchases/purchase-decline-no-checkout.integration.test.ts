/**
 * Review L3: a declined purchase is answered 402 with a checkout of the quote for the person to pay
 * themselves. When that checkout cannot be made (an item removed while the bank was asked), the
 * purchase must still close (requires_person, nothing charged, every reservation given back) and
 * the key must keep the one answer it gave: a refusal, 409 with the checkout's reason.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { testCards } from "../payments/sandbox-cards";
import { agentWithPerson, buy, directItem, getPurchase, quoteOf } from "../testing/agent-purchases";
import { buyQuote } from "./buy-quote";

describe("a decline whose pay-it-yourself checkout cannot be made (L3)", () => {
  it("requires_person with no checkout, 409 item_unavailable, the same answer replayed, no reservation left", async () => {
    const { token, person, agent } = await agentWithPerson({ card: testCards.declined });
    const [kept, removed] = [await directItem(), await directItem()];
    const quote = await quoteOf(token, [kept.id, removed.id]);
    const key = randomUUID();
    // The store removes an item while the bank is asked: the checkout's reservation cannot take it.
    const removeItem = async () =>
      void (await db().item.update({ where: { id: removed.id }, data: { status: "removed" } }));
    const first = await buyQuote(
      { db: db(), now: new Date(), clientId: agent.id, personId: person.id },
      { quote_id: quote.quote_id, idempotency_key: key },
      { afterAuthorize: removeItem },
    );
    expect(first.result).toMatchObject({
      status: 409,
      body: { error: { code: "item_unavailable" } },
    });
    const purchase = await db().purchase.findFirstOrThrow({ where: { personId: person.id } });
    expect(purchase).toMatchObject({ status: "requires_person", reason: "card_declined" });
    expect((await getPurchase(token, purchase.id)).body).toMatchObject({
      status: "requires_person",
      checkout: null,
      error: { code: "card_declined" },
    });
    expect(await db().checkout.count({ where: { quoteId: quote.quote_id } })).toBe(0);
    expect((await db().variant.findFirstOrThrow({ where: { itemId: kept.id } })).quantity).toBe(1);
    const replay = await buy(token, quote.quote_id, key);
    expect([replay.status, replay.body]).toEqual([409, first.result.body]);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});
