/**
 * Review L14: POST /purchases (and a watch's purchase, through the same use case) reads the saved
 * card under the person's row lock, and removing the card takes the same lock. A card removed while
 * a purchase is on its way is never held: the purchase waits for the removal and finds no card, or
 * the removal waits for the purchase's transaction.
 */
import { describe, expect, it } from "vitest";
import { db, rawPool } from "../platform/db";
import { agentWithPerson, buy, directItem, quoteOf } from "../testing/agent-purchases";
import { shopperCaller } from "../testing/callers";

/** Waits until `count` sessions of this database wait on a lock; false if they never do within about 2 s. */
const lockWaiters = async (count: number) => {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await rawPool().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0].n >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
};

describe("a saved card removed while a purchase is on its way (L14)", () => {
  it("the removal commits while the purchase waits for the person's lock: 409 no_saved_card, nothing held", async () => {
    const { token, person } = await agentWithPerson();
    const item = await directItem();
    const quote = await quoteOf(token, [item.id]);
    // The removal, as removeCard runs it, caught between its two statements.
    const removal = await rawPool().connect();
    try {
      await removal.query("BEGIN");
      await removal.query("SELECT id FROM persons WHERE id = $1 FOR NO KEY UPDATE", [person.id]);
      await removal.query("DELETE FROM saved_cards WHERE person_id = $1", [person.id]);
      const bought = buy(token, quote.quote_id);
      expect(await lockWaiters(1)).toBe(true);
      await removal.query("COMMIT");
      const answer = await bought;
      expect([answer.status, answer.body.error?.code]).toEqual([409, "no_saved_card"]);
    } finally {
      removal.release();
    }
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
    expect(
      await db().sandboxPayment.count({ where: { idempotencyKey: { startsWith: "pur_" } } }),
    ).toBe(0);
    expect((await db().variant.findFirstOrThrow({ where: { itemId: item.id } })).quantity).toBe(1);
  });

  it("removing the card waits for a purchase's transaction that holds the person's lock", async () => {
    const { person } = await agentWithPerson();
    // A purchase's first transaction, holding the person's row as readLockedState takes it.
    const purchase = await rawPool().connect();
    try {
      await purchase.query("BEGIN");
      await purchase.query("SELECT id FROM persons WHERE id = $1 FOR NO KEY UPDATE", [person.id]);
      let removed = false;
      const removing = shopperCaller(person.id)
        .account.removeCard()
        .then((result) => ((removed = true), result));
      expect(await lockWaiters(1)).toBe(true);
      expect(removed).toBe(false);
      expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(1);
      await purchase.query("COMMIT");
      expect((await removing).card).toBeNull();
    } finally {
      purchase.release();
    }
    expect(await db().savedCard.count({ where: { personId: person.id } })).toBe(0);
  });
});
