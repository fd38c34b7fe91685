/**
 * Review L4: one Idempotency-Key, one answer. A refusal decided in the purchase's first transaction
 * must keep its claim on the key: a concurrent request with the same key, waiting on that claim,
 * gets the refusal replayed; it never runs the purchase itself (with the claim rolled back it could
 * have been held, or refused for another reason, while the first answered its own refusal).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, rawPool } from "../platform/db";
import { agentWithPerson, directItem, quoteOf } from "../testing/agent-purchases";
import { buyQuote } from "./buy-quote";

/** Waits until `count` sessions of this database wait on a lock. */
const lockWaiters = async (count: number) => {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await rawPool().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0].n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never ${count} sessions waiting on a lock`);
};

describe("one key, one answer (L4)", () => {
  it("a refused request keeps its key: the concurrent same-key request gets the refusal replayed, not an answer of its own", async () => {
    const { token, person, agent } = await agentWithPerson();
    const quote = await quoteOf(token, [(await directItem()).id]);
    const request = { quote_id: quote.quote_id, idempotency_key: randomUUID() };
    const buyer = () => ({ db: db(), now: new Date(), clientId: agent.id, personId: person.id });
    // The person is changing their limits: the purchase waits for their row after claiming the key.
    const settings = await rawPool().connect();
    try {
      await settings.query("BEGIN");
      await settings.query("SELECT id FROM persons WHERE id = $1 FOR UPDATE", [person.id]);
      const first = buyQuote(buyer(), request);
      await lockWaiters(1);
      // The same request again (the assistant's retry): it waits on the first one's claim.
      const second = buyQuote(buyer(), request);
      await lockWaiters(2);
      await settings.query(
        "UPDATE persons SET spending_limit_per_order_cents = 100 WHERE id = $1",
        [person.id],
      );
      await settings.query("COMMIT");
      const [answered, replayed] = await Promise.all([first, second]);
      expect(answered).toMatchObject({
        replayed: false,
        result: { status: 409, body: { error: { code: "over_spending_limit" } } },
      });
      expect(replayed).toEqual({ replayed: true, result: answered.result });
    } finally {
      settings.release();
    }
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
  });
});
