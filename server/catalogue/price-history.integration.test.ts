/**
 * GET /products/{id}/price-history through the operation table's REST handler and the procedure:
 * the points and their times, the lows over 30 and 90 days (a price that held into the window counts)
 * and since listed, previous_price and the change from it, an item that never changed, 404 for an
 * unknown, removed or unlisted item (a sold one keeps its history), 403 without catalog:read, and
 * the point cap (the newest points, `truncated`, the lows still over every change, the same as the
 * pure historyOf over everything). previous_price on the item detail and in search results too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { handleRestRequest, operationHandler } from "../edges/rest/rest-router";
import { createCaller } from "../edges/trpc/caller";
import { fixedClock } from "../platform/clock";
import { db } from "../platform/db";
import { createInnerContext } from "../platform/trpc/context";
import { callRoute } from "../testing/rest";
import { setItemPrice } from "./set-item-price";
import { historyOf, readPriceHistory } from "./store/price-history";

const getHistory = operationHandler("GET /api/v1/products/{id}/price-history");
const dayMs = 86_400_000;
const t0 = new Date(Date.now() - 200 * dayMs);
const at = (days: number) => new Date(t0.getTime() + days * dayMs);
let token: string;
let storeId: number;

const callerAt = (now: Date) =>
  createCaller(
    createInnerContext({
      requestId: "test",
      clock: fixedClock(now),
      actor: {
        kind: "client",
        clientId: "cli_test",
        tokenId: "tok_test",
        scopes: ["catalog:read"],
      },
    }),
  );

/** An item listed at t0 for `listCents`, then the `changes` ([day, cents]) in order. */
const itemWith = async (listCents: number, changes: [number, number][]) => {
  const item = await createItem({ storeId, priceCents: listCents, createdAt: t0 });
  for (const [day, cents] of changes)
    await setItemPrice(db(), { itemId: item.id, priceCents: cents }, { now: at(day) });
  return item;
};

const money = (amount: string) => ({ amount, currency: "CAD" });

beforeAll(async () => {
  storeId = (await createStore()).id;
  const partner = await createPartner({ scopes: ["catalog:read"] });
  token = await partner.token();
});

describe("GET /products/{id}/price-history", () => {
  it("gives every point, the lows over 30 and 90 days and since listed, and the change from the previous price", async () => {
    // 100.00 listed at day 0; 60.00 at day 50; 150.00 at day 120; 145.00 at day 175 (the last one); now day 200.
    const item = await itemWith(10_000, [
      [50, 6_000],
      [120, 15_000],
      [175, 14_500],
    ]);
    await db().item.update({ where: { id: item.id }, data: { title: "Renamed" } });
    // Through the REST router, as a request to the path (not only the entry's handler).
    const response = await handleRestRequest(
      new Request(`http://localhost:3000/api/v1/products/${item.id}/price-history`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      catalog_item_id: String(item.id),
      currency: "CAD",
      points: [
        { price: money("100.00"), from: t0.toISOString(), to: at(50).toISOString() },
        { price: money("60.00"), from: at(50).toISOString(), to: at(120).toISOString() },
        { price: money("150.00"), from: at(120).toISOString(), to: at(175).toISOString() },
        { price: money("145.00"), from: at(175).toISOString(), to: null },
      ],
      truncated: false,
      // In the last 30 days (from day 170): 150.00 held into the window, then 145.00.
      lowest_30_days: money("145.00"),
      // In the last 90 days (from day 110): 60.00 held into it until day 120.
      lowest_90_days: money("60.00"),
      lowest_since_listed: money("60.00"),
      previous_price: money("150.00"),
      change_from_previous: { amount: "-5.00", percent: "-3.3" },
    });
    // The real clock is day 200: the procedure with a clock 40 days later sees the windows move.
    const later = await callerAt(at(240)).catalog.getPriceHistory({ id: item.id });
    expect(later.lowest_30_days).toEqual(money("145.00"));
    expect(later.lowest_90_days).toEqual(money("145.00"));
  });

  it("for an item that never changed: one point, every low its price, no previous price", async () => {
    const item = await itemWith(4_999, []);
    const history = await callerAt(at(200)).catalog.getPriceHistory({ id: item.id });
    expect(history).toMatchObject({
      points: [{ price: money("49.99"), from: t0.toISOString(), to: null }],
      truncated: false,
      lowest_30_days: money("49.99"),
      lowest_90_days: money("49.99"),
      lowest_since_listed: money("49.99"),
      previous_price: null,
      change_from_previous: null,
    });
  });

  it("a rise is a positive change; only kind 'price' events are history", async () => {
    const item = await itemWith(2_000, [[10, 2_500]]);
    await db().priceChangeEvent.create({
      data: {
        itemId: item.id,
        kind: "available",
        oldPriceCents: 2_500,
        newPriceCents: 2_500,
        createdAt: at(20),
      },
    });
    const history = await callerAt(at(30)).catalog.getPriceHistory({ id: item.id });
    expect(history.points).toHaveLength(2);
    expect(history.change_from_previous).toEqual({ amount: "5.00", percent: "25.0" });
    expect(history.previous_price).toEqual(money("20.00"));
  });

  it("404 for an unknown, a removed and an unlisted store's item; a sold item keeps its history", async () => {
    const caller = callerAt(at(200));
    await expect(caller.catalog.getPriceHistory({ id: 2_147_483_000 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const removed = await itemWith(3_000, [[5, 2_000]]);
    await db().item.update({ where: { id: removed.id }, data: { status: "removed" } });
    const response = await callRoute(getHistory, {
      path: `/products/${removed.id}/price-history`,
      token,
      params: { id: String(removed.id) },
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
    const closed = await createStore();
    const unlisted = await createItem({ storeId: closed.id });
    await db().store.update({ where: { id: closed.id }, data: { isOpen: false } });
    await expect(caller.catalog.getPriceHistory({ id: unlisted.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const sold = await itemWith(3_000, [[5, 2_000]]);
    await db().item.update({ where: { id: sold.id }, data: { status: "sold" } });
    expect((await caller.catalog.getPriceHistory({ id: sold.id })).points).toHaveLength(2);
  });

  it("403 insufficient_scope without catalog:read; 422 for an id that is not a number", async () => {
    const item = await itemWith(3_000, []);
    const other = await createPartner({ scopes: ["checkout:write"] });
    const refused = await callRoute(getHistory, {
      path: `/products/${item.id}/price-history`,
      token: await other.token(),
      params: { id: String(item.id) },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("insufficient_scope");
    const invalid = await callRoute(getHistory, {
      path: "/products/abc/price-history",
      token,
      params: { id: "abc" },
    });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).error.fields).toHaveProperty("id");
  });

  it("returns the newest points only past the cap (truncated), the lows still over every change, as historyOf over all of them", async () => {
    // 40 changes, one a day from day 100: a low of 5.00 at the 3rd, long before the newest 10 points.
    const prices = Array.from({ length: 40 }, (_, i) =>
      i === 2 ? 500 : 3_000 + ((i * 37) % 11) * 100,
    );
    const item = await itemWith(
      4_000,
      prices.map((cents, i) => [100 + i, cents]),
    );
    const now = at(150);
    const capped = await readPriceHistory(db(), item.id, now, { maxPoints: 10 });
    const events = await db().priceChangeEvent.findMany({
      where: { itemId: item.id, kind: "price" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const whole = historyOf({
      itemId: item.id,
      listedAt: t0,
      priceCents: 0,
      changes: events.map((event) => ({
        oldPriceCents: event.oldPriceCents,
        newPriceCents: event.newPriceCents,
        at: event.createdAt,
      })),
      now,
    });
    expect(whole.points).toHaveLength(41);
    expect(capped).toEqual({ ...whole, points: whole.points.slice(-10), truncated: true });
    expect(capped!.lowestSinceListedCents).toBe(500);
    // Exactly as many changes as the cap: the listing's point is left out, so truncated.
    const exact = await readPriceHistory(db(), item.id, now, { maxPoints: 40 });
    expect(exact).toEqual({ ...whole, points: whole.points.slice(-40), truncated: true });
    // One more than the changes: everything, not truncated.
    expect(await readPriceHistory(db(), item.id, now, { maxPoints: 41 })).toEqual(whole);
    // The endpoint's cap is 500: this item fits.
    const answer = await callerAt(now).catalog.getPriceHistory({ id: item.id });
    expect(answer.points).toHaveLength(41);
    expect(answer.truncated).toBe(false);
  });
});

describe("previous_price on items", () => {
  it("is on the item detail and in search results: the price before the latest change, null when it never changed", async () => {
    const store = await createStore();
    const changed = await createItem({
      storeId: store.id,
      title: "Previous price quokka coat",
      priceCents: 9_000,
    });
    await setItemPrice(db(), { itemId: changed.id, priceCents: 8_000 }, { now: new Date() });
    await setItemPrice(db(), { itemId: changed.id, priceCents: 7_000 }, { now: new Date() });
    const unchanged = await createItem({
      storeId: store.id,
      title: "Unchanged quokka coat",
      priceCents: 5_000,
    });
    const caller = callerAt(new Date());
    expect(await caller.catalog.getProduct({ id: changed.id })).toMatchObject({
      price: money("70.00"),
      previous_price: money("80.00"),
    });
    expect((await caller.catalog.getProduct({ id: unchanged.id })).previous_price).toBeNull();
    const found = await caller.catalog.searchProducts({ store: store.slug });
    expect(Object.fromEntries(found.data.map((item) => [item.id, item.previous_price]))).toEqual({
      [changed.id]: money("80.00"),
      [unchanged.id]: null,
    });
  });
});
