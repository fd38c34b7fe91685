/**
 * The statement budget of a watch's purchase (ADR 0131): a sale's time is its statements (each a
 * round trip that costs the sweep thread and PostgreSQL alike), and a sale makes thousands of
 * purchases. Counted at `pg`'s `Client.query`, which every statement of the raw pool and of
 * Prisma's adapter goes through, around the purchase of a claimed watch: the watch read, the
 * purchase's context, its opening transaction, the sandbox processor's authorize and the record
 * transaction. A change that adds a statement here must raise the budget on purpose.
 */
import { expect, it } from "vitest";
import { db } from "../platform/db";
import {
  createBuyer,
  getWatch,
  quoteToSavedAddress,
  setWatch,
  watchableItem,
} from "../testing/watch-fixtures";
import { statementsSent } from "../testing/statements-sent";
import { buyClaimed } from "./evaluate-watch";
import { moveWatch } from "./watch-writer";

/** The watch read (1), the context (1), the opening (10), the authorize (2), the record (9). */
const statementBudget = 23;

/** A watch claimed with a fresh quote for its item at $75, as the evaluator leaves it just before buying. */
const claimedWatch = async () => {
  const buyer = await createBuyer({});
  const item = await watchableItem(10_000);
  const { body } = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: 100,
  });
  const watchId = body.price_watch_id as number;
  await db().item.update({ where: { id: item.id }, data: { priceCents: 7_500 } });
  const quoteId = await quoteToSavedAddress({
    clientId: buyer.agent.id,
    personId: buyer.person.id,
    itemId: item.id,
  });
  const now = new Date();
  await moveWatch(db(), {
    id: watchId,
    event: "claim",
    now,
    data: { quoteId, claimedAt: now },
  });
  return { token: buyer.token, watchId };
};

it(`a watch's purchase (held, both emails written, the watch fulfilled) makes at most ${statementBudget} statements`, async () => {
  // One purchase first, so that nothing loaded or prepared once counts.
  const warm = await claimedWatch();
  await buyClaimed(db(), warm.watchId, { now: new Date() });
  const { token, watchId } = await claimedWatch();
  const statements = (
    await statementsSent(() => buyClaimed(db(), watchId, { now: new Date() }))
  ).map((statement) => statement.text);
  expect((await getWatch(token, watchId)).body).toMatchObject({
    status: "fulfilled",
    outcome: "bought",
  });
  // Counted where they go out (the purchase's own insert among them), and within the budget.
  expect(statements.some((text) => text.includes("INSERT INTO purchases"))).toBe(true);
  expect(
    statements.length,
    statements.map((text) => text.replace(/\s+/g, " ").slice(0, 80)).join("\n"),
  ).toBeLessThanOrEqual(statementBudget);
});
