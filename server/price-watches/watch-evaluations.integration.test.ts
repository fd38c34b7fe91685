/**
 * price_watch_evaluations (1.9.0): a row for each evaluation of a live watch, written by real price
 * changes through the price-change processor (over max_price, over max_total, bought, ended), read
 * through GET /price-watches/{id}/evaluations (the operation table's REST handler) newest first
 * and paginated, another person's watch 404; the dashboard's list shows the last one.
 */
import { describe, expect, it } from "vitest";
import { db } from "../platform/db";
import { operationHandler } from "../edges/rest/rest-router";
import { processPriceChanges } from "../price-changes/process-price-changes";
import { setItemPrice } from "../catalogue/set-item-price";
import { callRoute } from "../testing/rest";
import { shopperCaller } from "../testing/callers";
import { cancelPurchase } from "../purchases";
import { paymentProvider } from "../payments";
import { createBuyer, setWatch, watchableItem, type BuyerOptions } from "../testing/watch-fixtures";

const evaluationsRoute = operationHandler("GET /api/v1/price-watches/{price_watch_id}/evaluations");

const evaluations = async (token: string, id: number, query = "") => {
  const response = await callRoute(evaluationsRoute, {
    path: `/price-watches/${id}/evaluations${query}`,
    token,
    params: { price_watch_id: String(id) },
  });
  return { status: response.status, body: await response.json() };
};

const process = () => processPriceChanges(db(), { now: () => new Date() });

/** Each drop processed on its own, a moment apart (the evaluations are told apart by their time). */
const dropTo = async (itemId: number, priceCents: number) => {
  await setItemPrice(db(), { itemId, priceCents }, { now: new Date() });
  await process();
  await new Promise((resolve) => setTimeout(resolve, 5));
};

/** A buyer with a watch on a $100 item: buy at $80 or less, `maxTotal` in all at most. */
const watching = async (options: BuyerOptions & { maxTotal?: number } = {}) => {
  const buyer = await createBuyer(options);
  const item = await watchableItem(10_000);
  const { status, body } = await setWatch(buyer.token, {
    catalog_item_id: String(item.id),
    max_price: 80,
    max_total: options.maxTotal ?? 100,
  });
  expect(status).toBe(201);
  return { ...buyer, item, watchId: body.price_watch_id as number };
};

describe("evaluations of a live watch", () => {
  it("a drop still over max_price, then one that buys: two rows, newest first, paginated", async () => {
    const { token, item, watchId } = await watching();
    await dropTo(item.id, 9_000);
    await dropTo(item.id, 7_500);
    const { status, body } = await evaluations(token, watchId);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ page: 1, per_page: 24, total: 2, last_page: 1 });
    const [bought, waited] = body.data;
    expect(waited).toMatchObject({
      price: { amount: "90.00" },
      total: null,
      outcome: "not_bought",
      failed_condition: "max_price",
    });
    expect(bought).toMatchObject({
      price: { amount: "75.00" },
      outcome: "bought",
      failed_condition: null,
    });
    const { purchaseId } = await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } });
    const purchase = await db().purchase.findUniqueOrThrow({ where: { id: purchaseId! } });
    expect(bought.total).toEqual({
      amount: (purchase.grandTotalCents / 100).toFixed(2),
      currency: "CAD",
    });
    expect(Date.parse(bought.evaluated_at)).toBeGreaterThan(Date.parse(waited.evaluated_at));
    // Pagination: one a page.
    const second = await evaluations(token, watchId, "?per_page=1&page=2");
    expect(second.body.data).toEqual([waited]);
    expect(second.body.pagination).toEqual({ page: 2, per_page: 1, total: 2, last_page: 2 });
    // The ended watch is no longer evaluated: a further drop adds nothing.
    await dropTo(item.id, 7_000);
    expect((await evaluations(token, watchId)).body.pagination.total).toBe(2);
  });

  it("over max_total: not_bought with the quote's total; the person's pause ends it: ended, purchases_paused", async () => {
    const { token, person, item, watchId } = await watching({ maxTotal: 80 });
    await dropTo(item.id, 7_900);
    const first = (await evaluations(token, watchId)).body.data;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      price: { amount: "79.00" },
      outcome: "not_bought",
      failed_condition: "max_total",
    });
    expect(Number(first[0].total.amount)).toBeGreaterThan(80);
    await db().person.update({ where: { id: person.id }, data: { purchasesPaused: true } });
    await dropTo(item.id, 7_800);
    const [ended] = (await evaluations(token, watchId)).body.data;
    expect(ended).toMatchObject({
      price: { amount: "78.00" },
      total: null,
      outcome: "ended",
      failed_condition: "purchases_paused",
    });
    expect((await db().priceWatch.findUniqueOrThrow({ where: { id: watchId } })).outcome).toBe(
      "purchases_paused",
    );
  });

  it("two evaluators at once on two events: one bought row, never two", async () => {
    const { token, item, watchId } = await watching();
    await setItemPrice(db(), { itemId: item.id, priceCents: 7_600 }, { now: new Date() });
    await setItemPrice(db(), { itemId: item.id, priceCents: 7_500 }, { now: new Date() });
    const events = await db().priceChangeEvent.findMany({
      where: { itemId: item.id, processedAt: null },
    });
    await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), ids: [events[0].id] }),
      processPriceChanges(db(), { now: () => new Date(), ids: [events.at(-1)!.id] }),
      processPriceChanges(db(), { now: () => new Date() }),
    ]);
    const rows = (await evaluations(token, watchId)).body.data as { outcome: string }[];
    expect(rows.filter((row) => row.outcome === "bought")).toHaveLength(1);
    // The run that lost the claim records nothing; one whose purchase met a newer price (price_changed)
    // records not_bought and leaves the watch to the newer event. The newest row is the purchase.
    expect(rows[0].outcome).toBe("bought");
    for (const row of rows.slice(1)) expect(row.outcome).toBe("not_bought");
  });

  it("another person's watch and an unknown one are 404; a watch not yet evaluated has none", async () => {
    const { token, watchId } = await watching();
    expect((await evaluations(token, watchId)).body).toMatchObject({
      data: [],
      pagination: { total: 0, last_page: 1 },
    });
    const stranger = await createBuyer();
    const theirs = await evaluations(stranger.token, watchId);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("not_found");
    expect((await evaluations(token, 2_000_000_000)).status).toBe(404);
    expect((await evaluations(token, watchId, "?per_page=49")).status).toBe(422);
  });

  it("the dashboard's list shows each watch's last evaluation", async () => {
    const { person, item, watchId } = await watching({ maxTotal: 80 });
    const before = await shopperCaller(person.id).account.listMyWatches({ page: 1 });
    expect(before.watches[0].last_evaluation).toBeNull();
    await dropTo(item.id, 9_500);
    await dropTo(item.id, 7_900);
    const after = await shopperCaller(person.id).account.listMyWatches({ page: 1 });
    expect(
      after.watches.find((watch) => watch.price_watch_id === watchId)?.last_evaluation,
    ).toMatchObject({
      price: { amount: "79.00" },
      outcome: "not_bought",
      failed_condition: "max_total",
    });
  });

  it("the dashboard's list says when the purchase a watch made was since cancelled", async () => {
    const { person, item, watchId } = await watching();
    await dropTo(item.id, 7_500);
    const shown = async () =>
      (await shopperCaller(person.id).account.listMyWatches({ page: 1 })).watches.find(
        (watch) => watch.price_watch_id === watchId,
      )!;
    const bought = await shown();
    expect(bought).toMatchObject({ status: "fulfilled", purchase: { status: "held" } });
    // The person cancels it from the copy email: the watch still made its one purchase, and says what became of it.
    await cancelPurchase(db(), paymentProvider(), {
      id: bought.purchase_id!,
      now: new Date(),
      by: "person",
    });
    expect(await shown()).toMatchObject({
      status: "fulfilled",
      order_number: bought.order_number,
      purchase: { status: "cancelled", reason: "cancelled_by_person" },
    });
  });
});
