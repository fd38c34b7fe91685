/**
 * Price watches acting on price changes, end to end below the HTTP edge: a watch set over REST, the
 * price changed through the one price-change path, the events processed as the sweep and the
 * Inngest function do. A drop within both maxima buys once through the purchase path (held, 24 h,
 * copy email); over max_total it does not buy and, expiring so, ends over_your_total; a declined
 * card gives needs_you with a checkout link; the item sold to someone else gives item_sold; two
 * concurrent events with two evaluators buy exactly once; a change while nothing ran is acted on
 * when processing starts again; the person's own settings end it.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { testCards } from "../payments/sandbox-cards";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { setItemPrice } from "../catalogue/set-item-price";
import { reserve } from "../checkout/reservations";
import { startSweep } from "../edges/jobs/sweep";
import { dueWork } from "../edges/jobs/due-work";
import { sandboxLedger } from "../testing/purchase-ledger";
import {
  createBuyer,
  getWatch,
  quoteToSavedAddress,
  setWatch,
  watchableItem,
  type BuyerOptions,
} from "../testing/watch-fixtures";
import { paymentProvider } from "../payments";
import { completeLateAuthorize } from "../purchases/complete-late-authorize";
import { buyClaimed } from "./evaluate-watch";
import { moveWatch } from "./watch-writer";
import { executingRetryMs, expireDueWatches, resumeExecutingWatches } from "./watch-jobs";

const process = () => processPriceChanges(db(), { now: () => new Date() });

/** A buyer with a watch on a $100 item: buy at $80 or less, $100 in all at most. */
const watching = async (options: BuyerOptions & { maxTotal?: number; days?: number } = {}) => {
  const buyer = await createBuyer(options);
  const item = await watchableItem(10_000);
  const { status, body } = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: options.maxTotal ?? 100,
    days: options.days,
  });
  expect(status).toBe(201);
  return { ...buyer, item, watchId: body.price_watch_id as number };
};

const dropTo = (itemId: number, priceCents: number) =>
  setItemPrice(db(), { itemId, priceCents }, { now: new Date() });

const emailsOf = (to: string, template: string) =>
  db().emailMessage.findMany({ where: { to, template } });

describe("a price drop", () => {
  it("within max_price and max_total buys once through the purchase path: fulfilled, bought, order number, held 24 h", async () => {
    const { token, person, item, watchId } = await watching();
    await dropTo(item.id, 7_500); // $75 + $9.99-ish shipping + 13% HST stays under $100
    await process();
    const { body } = await getWatch(token, watchId);
    expect(body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
      current_price: { amount: "75.00" },
    });
    expect(body.order_number).toMatch(/^SO-/);
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id: body.purchase_id } });
    expect(purchase).toMatchObject({
      status: "held",
      personId: person.id,
      orderNumber: body.order_number,
    });
    expect(purchase.grandTotalCents).toBeLessThanOrEqual(10_000);
    expect(purchase.chargesAt!.getTime() - purchase.heldAt!.getTime()).toBe(24 * 3_600_000);
    expect(await sandboxLedger(purchase.id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    expect(await emailsOf(person.email, "purchase-copy")).toHaveLength(1);
    const bought = await emailsOf(person.email, "price-watch-bought");
    expect(bought).toHaveLength(1);
    expect(bought[0].props).toMatchObject({ orderNumber: body.order_number, priceCents: 7_500 });
    // A later drop does nothing more: at most one purchase per watch.
    await dropTo(item.id, 7_000);
    await process();
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
  });

  it("within max_price but over max_total does not buy; expiring so ends over_your_total", async () => {
    const { token, person, item, watchId } = await watching({ maxTotal: 80 });
    await dropTo(item.id, 7_900); // the price fits, shipping and tax take the total over $80
    await process();
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "active",
      outcome: null,
    });
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    await expireDueWatches(db(), { now: new Date(watch.expiresAt.getTime() + 1) });
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "expired",
      outcome: "over_your_total",
    });
    expect((await emailsOf(person.email, "price-watch-ended"))[0].props).toMatchObject({
      outcome: "over_your_total",
    });
  });

  it("a declined card gives needs_you (card_declined) with a checkout link emailed; nothing charged", async () => {
    const { token, person, item, watchId } = await watching({ card: testCards.declined });
    await dropTo(item.id, 7_500);
    await process();
    const { body } = await getWatch(token, watchId);
    expect(body).toMatchObject({
      status: "needs_you",
      outcome: "card_declined",
      order_number: null,
    });
    expect(body.checkout_url).toMatch(/\/checkout\/chk_/);
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id: body.purchase_id } });
    expect(purchase.status).toBe("requires_person");
    const email = await emailsOf(person.email, "price-watch-needs-you");
    expect(email).toHaveLength(1);
    expect(email[0].props).toMatchObject({
      reason: "card_declined",
      checkoutUrl: body.checkout_url,
    });
  });

  it("a card whose bank asks the person to authenticate (off-session) gives needs_you (authentication_required): nothing captured, one email, and a later drop buys nothing more (B4-09)", async () => {
    const { token, person, item, watchId } = await watching({
      card: testCards.requiresAuthentication,
    });
    await dropTo(item.id, 7_500);
    await process();
    const { body } = await getWatch(token, watchId);
    expect(body).toMatchObject({ status: "needs_you", outcome: "authentication_required" });
    expect(body.checkout_url).toMatch(/\/checkout\/chk_/);
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id: body.purchase_id } });
    expect(purchase.status).toBe("requires_person");
    expect((await sandboxLedger(purchase.id)).captures).toBe(0);
    await dropTo(item.id, 7_000);
    await process();
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
    expect(await emailsOf(person.email, "price-watch-needs-you")).toHaveLength(1);
  });

  it("the item sold to someone else first gives item_sold, nothing bought", async () => {
    const { token, person, item, watchId } = await watching();
    const variant = await db().variant.findFirstOrThrow({ where: { itemId: item.id } });
    await db().$transaction((tx) => reserve(tx, [{ variantId: variant.id, quantity: 1 }]));
    // The price drops, then the item sells before the change is processed (a sold item's price cannot change).
    await dropTo(item.id, 7_500);
    await db().item.update({ where: { id: item.id }, data: { status: "sold" } });
    await process();
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "item_sold",
      outcome: "item_sold",
    });
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(0);
  });

  it("two watchers, one unit: the first buys, the other ends item_sold", async () => {
    const first = await createBuyer();
    const second = await createBuyer();
    const item = await watchableItem(10_000);
    const a = (
      await setWatch(first.token, {
        catalog_item_id: String(item.id),
        max_price: 80,
        max_total: 100,
      })
    ).body.price_watch_id;
    const b = (
      await setWatch(second.token, {
        catalog_item_id: String(item.id),
        max_price: 80,
        max_total: 100,
      })
    ).body.price_watch_id;
    await dropTo(item.id, 7_500);
    await process();
    expect((await getWatch(first.token, a)).body.status).toBe("fulfilled");
    expect((await getWatch(second.token, b)).body).toMatchObject({
      status: "item_sold",
      outcome: "item_sold",
    });
  });

  it("three watchers, one unit: one buys; the two others end item_sold together, each emailed once; one purchase, one hold", async () => {
    const buyers = [await createBuyer(), await createBuyer(), await createBuyer()];
    const item = await watchableItem(10_000);
    const ids: number[] = [];
    for (const buyer of buyers)
      ids.push(
        (
          await setWatch(buyer.token, {
            catalog_item_id: String(item.id),
            max_price: 80,
            max_total: 100,
          })
        ).body.price_watch_id,
      );
    await dropTo(item.id, 7_500);
    await process();
    const watches = await Promise.all(
      buyers.map((buyer, index) => getWatch(buyer.token, ids[index])),
    );
    expect(watches.map(({ body }) => body.status)).toEqual(["fulfilled", "item_sold", "item_sold"]);
    const purchases = await db().purchase.findMany({
      where: { personId: { in: buyers.map((buyer) => buyer.person.id) } },
    });
    expect(purchases).toHaveLength(1);
    expect(await sandboxLedger(purchases[0].id)).toEqual({
      status: "authorized",
      holds: 1,
      captures: 0,
      releases: 0,
    });
    for (const buyer of buyers.slice(1)) {
      const ended = await emailsOf(buyer.person.email, "price-watch-ended");
      expect(ended).toHaveLength(1);
      expect(ended[0].props).toMatchObject({ outcome: "item_sold" });
    }
  });

  it("two concurrent price-change events handled by two evaluators buy exactly once", async () => {
    const { token, person, item, watchId } = await watching();
    await Promise.all(
      [dropTo(item.id, 7_600), dropTo(item.id, 7_500)].map((change) =>
        change.catch(() => undefined),
      ),
    );
    const events = await db().priceChangeEvent.findMany({
      where: { itemId: item.id, processedAt: null },
    });
    expect(events.length).toBeGreaterThanOrEqual(1);
    // Two instances, each handed one of the events (as two Inngest runs would be), at once.
    await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), ids: [events[0].id] }),
      processPriceChanges(db(), { now: () => new Date(), ids: [events.at(-1)!.id] }),
      processPriceChanges(db(), { now: () => new Date() }),
    ]);
    expect((await getWatch(token, watchId)).body.status).toBe("fulfilled");
    const purchases = await db().purchase.findMany({ where: { personId: person.id } });
    expect(purchases).toHaveLength(1);
    expect(await sandboxLedger(purchases[0].id)).toMatchObject({ holds: 1 });
  });

  it("a price change made while the service was stopped is acted on when it starts again", async () => {
    const { token, item, watchId } = await watching();
    // Nothing processes: the change and its event are only in the database.
    await dropTo(item.id, 7_500);
    expect((await getWatch(token, watchId)).body.status).toBe("active");
    // The service comes back: its sweep's price-change task runs.
    const sweep = startSweep({
      tasks: dueWork.filter((task) => task.name === "process-price-changes"),
      intervalMs: 60_000,
    });
    try {
      await sweep.tick();
    } finally {
      await sweep.stop();
    }
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
    });
  });
});

describe("ending without a purchase", () => {
  it("expiry: an active watch past expires_at ends expired (the sweep), with the ended email", async () => {
    const { token, person, watchId } = await watching({ days: 1 });
    expect(await expireDueWatches(db(), { now: new Date() })).toBe(0);
    await expireDueWatches(db(), { now: new Date(Date.now() + 24 * 3_600_000 + 1000) });
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "expired",
      outcome: "expired",
    });
    expect(await emailsOf(person.email, "price-watch-ended")).toHaveLength(1);
  });

  it("limits lowered below max_total, purchases paused, the assistant disconnected: each ends it with its outcome on the next drop", async () => {
    const lowered = await watching();
    await db().person.update({
      where: { id: lowered.person.id },
      data: { spendingLimitPerOrderCents: 5_000 },
    });
    const paused = await watching();
    await db().person.update({ where: { id: paused.person.id }, data: { purchasesPaused: true } });
    const disconnected = await watching();
    await db().oAuthGrant.updateMany({
      where: { personId: disconnected.person.id },
      data: { revokedAt: new Date() },
    });
    for (const { item } of [lowered, paused, disconnected]) await dropTo(item.id, 7_500);
    await process();
    expect(
      (await db().priceWatch.findUniqueOrThrow({ where: { id: lowered.watchId } })).outcome,
    ).toBe("limits_lowered");
    expect(
      (await db().priceWatch.findUniqueOrThrow({ where: { id: paused.watchId } })).outcome,
    ).toBe("purchases_paused");
    expect(
      (await db().priceWatch.findUniqueOrThrow({ where: { id: disconnected.watchId } })).outcome,
    ).toBe("assistant_disconnected");
    expect(
      await db().purchase.count({
        where: { personId: { in: [lowered.person.id, paused.person.id, disconnected.person.id] } },
      }),
    ).toBe(0);
  });
});

describe("a watch left executing", () => {
  it("the bank answers late: executing with its purchase until the hold is known, then fulfilled (recovery sweep)", async () => {
    const { token, item, watchId } = await watching({ card: testCards.answersLate });
    await dropTo(item.id, 7_500);
    await process();
    const executing = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    expect(executing).toMatchObject({ status: "executing" });
    expect(executing.purchaseId).toMatch(/^pur_/);
    await completeLateAuthorize(db(), paymentProvider(), {
      id: executing.purchaseId!,
      now: new Date(),
    });
    await resumeExecutingWatches(db(), { now: new Date(Date.now() + executingRetryMs + 1000) });
    const { body } = await getWatch(token, watchId);
    expect(body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
      purchase_id: executing.purchaseId,
    });
    expect(await db().purchase.count({ where: { quoteId: executing.quoteId! } })).toBe(1);
  });

  it("a crash between the claim and the purchase: the recovery sweep makes the purchase once, with the recorded quote", async () => {
    const { token, person, item, watchId } = await watching();
    await db().item.update({ where: { id: item.id }, data: { priceCents: 7_500 } }); // no event: the crash came after the claim
    // What the evaluator had done before dying: a fresh quote, and the claim that records it.
    const watch = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    const quoteId = await quoteToSavedAddress({
      clientId: watch.clientId,
      personId: person.id,
      itemId: item.id,
      size: watch.size ?? undefined,
    });
    const claimedAt = new Date(Date.now() - executingRetryMs - 1000);
    expect(
      await moveWatch(db(), {
        id: watchId,
        event: "claim",
        now: claimedAt,
        data: { quoteId, claimedAt },
      }),
    ).toMatchObject({ id: watchId, status: "executing" });
    // Two recovery runs and a late evaluator race on the one claimed purchase (the bench found this race under load).
    await Promise.all([
      resumeExecutingWatches(db(), { now: new Date() }),
      resumeExecutingWatches(db(), { now: new Date() }),
      buyClaimed(db(), watchId, { now: new Date() }),
    ]);
    expect((await getWatch(token, watchId)).body).toMatchObject({
      status: "fulfilled",
      outcome: "bought",
    });
    expect(await db().purchase.count({ where: { personId: person.id } })).toBe(1);
  });
});
