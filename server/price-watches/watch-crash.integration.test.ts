/**
 * A process killed mid-watch-evaluation, then restarted (issue 12): a real child process evaluates
 * a price drop (the price-change task of the sweep) against the real database, through a proxy that
 * holds back a chosen statement; when it arrives the child is SIGKILLed. The process "restarted"
 * past the event's lease and the executing watch's retry delay runs every due task, twice (its sweep
 * runs continuously, as `npm start` does without an Inngest server; its tasks run side by side, so a
 * purchase settled by one pass is seen by the watch's task on the next). Whatever the point, nothing is lost (the
 * watch ends with its purchase, or with why it has none) and nothing runs twice (at most one
 * purchase for the watch, at most one hold, no capture), and a second restart changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { priceChangeLeaseMs } from "../price-changes/process-price-changes";
import { setItemPrice } from "../catalogue/set-item-price";
import { crashHarness } from "../testing/crash-process";
import { databaseProxy } from "../testing/db-proxy";
import { sandboxLedger } from "../testing/purchase-ledger";
import { createBuyer, setWatch, watchableItem } from "../testing/watch-fixtures";
import { executingRetryMs } from "./watch-jobs";

const proxy = databaseProxy();
beforeAll(() => proxy.open());
afterAll(() => proxy.cut());
const { killedAt, restart: sweepOnce } = crashHarness(proxy);

/** The restarted process's first two sweeps, the second a minute later. */
const restart = async (at: Date) => {
  await sweepOnce(at);
  await sweepOnce(new Date(at.getTime() + 60_000));
};

/** Past the event's lease and the executing watch's retry delay: the restarted sweep takes both over. */
const afterRestart = (extraMs = 0) =>
  new Date(Date.now() + priceChangeLeaseMs + executingRetryMs + 60_000 + extraMs);

/** A watch (buy at 80.00, at most 100.00 in all) on a 100.00 item, and the item dropped to 75.00 with its price-change event. */
const droppedWatch = async () => {
  const buyer = await createBuyer();
  const item = await watchableItem(10_000);
  const set = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: 100,
  });
  expect(set.status).toBe(201);
  await setItemPrice(db(), { itemId: item.id, priceCents: 7_500 }, { now: new Date() });
  return { personId: buyer.person.id, itemId: item.id, watchId: set.body.price_watch_id as number };
};

/** The watch, the person's purchases and each purchase's ledger. */
const state = async (watchId: number, personId: string) => {
  const watch = await db().priceWatch.findUniqueOrThrow({
    where: { id: watchId },
    select: { status: true, outcome: true, purchaseId: true },
  });
  const purchases = await db().purchase.findMany({
    where: { personId },
    select: { id: true, status: true },
  });
  const ledgers = await Promise.all(
    purchases.map((purchase) => sandboxLedger(purchase.id).catch(() => null)),
  );
  return { watch, purchases, ledgers };
};

describe("a process killed mid-watch-evaluation, then restarted", () => {
  it.each([
    ["at the claim (active -> executing)", /UPDATE price_watches w SET status = /],
    ["after the claim, before the purchase is written", /INSERT INTO purchases /],
  ])(
    "killed %s: the restart buys once, with one hold; a second restart changes nothing",
    async (_point, statement) => {
      const { personId, watchId } = await droppedWatch();
      await killedAt(statement, ["evaluate"]);
      expect(await db().purchase.count({ where: { personId } })).toBe(0);
      await restart(afterRestart());
      const after = await state(watchId, personId);
      expect(after.purchases).toHaveLength(1);
      expect(after.watch).toEqual({
        status: "fulfilled",
        outcome: "bought",
        purchaseId: after.purchases[0].id,
      });
      expect(after.ledgers).toEqual([{ status: "authorized", holds: 1, captures: 0, releases: 0 }]);
      await restart(afterRestart(180_000));
      expect(await state(watchId, personId)).toEqual(after);
    },
    180_000,
  );

  it("killed between the processor's hold and our record of it: one purchase, its hold released once, the watch ended payment_failed with it, nothing bought twice", async () => {
    const { personId, watchId } = await droppedWatch();
    await killedAt(/UPDATE payments SET status = 'authorized'/, ["evaluate"]);
    const [{ id }] = await db().purchase.findMany({ where: { personId }, select: { id: true } });
    expect(await sandboxLedger(id)).toMatchObject({ status: "authorized", holds: 1 });
    await restart(afterRestart());
    const after = await state(watchId, personId);
    expect(after.purchases).toEqual([{ id, status: "refused" }]);
    expect(after.ledgers).toEqual([{ status: "voided", holds: 1, captures: 0, releases: 1 }]);
    // The bank never answered as far as we know: the hold is released and the watch's one purchase is spent (payment_failed).
    expect(after.watch).toEqual({ status: "cancelled", outcome: "payment_failed", purchaseId: id });
    await restart(afterRestart(180_000));
    expect(await state(watchId, personId)).toEqual(after);
  }, 180_000);
});
