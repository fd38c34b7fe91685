/**
 * Price changes are durable events: the price and its event are one transaction, every path
 * (sandbox helper over REST, the ops function) records one, and the processor hands each event to
 * the handlers exactly once even with two processors at the same rows, and acts on events written
 * while no processor ran (a stopped service) when one starts again.
 */
import { describe, expect, it } from "vitest";
import { createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { setItemPriceCommand } from "../edges/ops/item-commands";
import { callRoute } from "../testing/rest";
import { operationHandler } from "../edges/rest/rest-router";
import type { PriceChangeHandler, PriceChangeRecord } from "../catalogue/price-change-events";
import { processPriceChanges } from "./process-price-changes";
import { setItemPrice, setItemPrices } from "../catalogue/set-item-price";

const recording = () => {
  const seen: PriceChangeRecord[] = [];
  const handler: PriceChangeHandler = {
    name: "record",
    handle: async (_db, event) => void seen.push(event),
  };
  return { seen, handler };
};

describe("recording a price change", () => {
  it("writes the new price and one event in the same transaction; an unchanged price records nothing", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, priceCents: 5000 });
    const change = await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 3999 },
      { now: new Date() },
    );
    expect(change).toMatchObject({ itemId: item.id, oldPriceCents: 5000, newPriceCents: 3999 });
    const events = await db().priceChangeEvent.findMany({ where: { itemId: item.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: change.eventId,
      oldPriceCents: 5000,
      newPriceCents: 3999,
      processedAt: null,
    });
    expect((await db().item.findUniqueOrThrow({ where: { id: item.id } })).priceCents).toBe(3999);
    expect(
      (await setItemPrice(db(), { itemId: item.id, priceCents: 3999 }, { now: new Date() }))
        .eventId,
    ).toBeNull();
    expect(await db().priceChangeEvent.count({ where: { itemId: item.id } })).toBe(1);
  });

  it("an unknown item in a batch writes nothing at all", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, priceCents: 5000 });
    await expect(
      setItemPrices(
        db(),
        [
          { itemId: item.id, priceCents: 100 },
          { itemId: 2_000_000_000, priceCents: 100 },
        ],
        { now: new Date() },
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await db().item.findUniqueOrThrow({ where: { id: item.id } })).priceCents).toBe(5000);
    expect(await db().priceChangeEvent.count({ where: { itemId: item.id } })).toBe(0);
  });

  it("the sandbox helper and the ops command go through the same path", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, priceCents: 5000 });
    const token = await (await createPartner({ scopes: ["catalog:read"] })).token();
    const call = (body: unknown) =>
      callRoute(operationHandler("POST /api/v1/sandbox/items/{item_id}/price"), {
        method: "POST",
        path: `/sandbox/items/${item.id}/price`,
        token,
        body,
        params: { item_id: String(item.id) },
      });
    const answer = await call({ price: "12.34" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      catalog_item_id: String(item.id),
      old_price: { amount: "50.00", currency: "CAD" },
      price: { amount: "12.34", currency: "CAD" },
      changed: true,
    });
    const invalid = await call({ price: "12.345" });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).error.fields).toHaveProperty("price");
    const viaOps = await setItemPriceCommand(String(item.id), { price: "11" });
    expect(viaOps).toMatchObject({ item_id: item.id, old_price: "12.34", price: "11.00" });
    const events = await db().priceChangeEvent.findMany({
      where: { itemId: item.id },
      orderBy: { id: "asc" },
    });
    expect(events.map((event) => [event.oldPriceCents, event.newPriceCents])).toEqual([
      [5000, 1234],
      [1234, 1100],
    ]);
  });
});

describe("processing price changes", () => {
  it("two processors at the same events hand each event to the handlers exactly once", async () => {
    await db().priceChangeEvent.updateMany({
      where: { processedAt: null },
      data: { processedAt: new Date() },
    });
    const store = await createStore();
    const items = await Promise.all(
      Array.from({ length: 30 }, () => createItem({ storeId: store.id, priceCents: 9000 })),
    );
    await setItemPrices(
      db(),
      items.map((item) => ({ itemId: item.id, priceCents: 4500 })),
      { now: new Date() },
    );
    const { seen, handler } = recording();
    const slow: PriceChangeHandler = {
      name: "slow",
      handle: (...args) =>
        new Promise((resolve) => setTimeout(() => resolve(handler.handle(...args)), 5)),
    };
    const [first, second] = await Promise.all([
      processPriceChanges(db(), { now: () => new Date(), handlers: [slow], batch: 7 }),
      processPriceChanges(db(), { now: () => new Date(), handlers: [slow], batch: 7 }),
    ]);
    expect(first.processed + second.processed).toBe(30);
    expect(seen).toHaveLength(30);
    expect(new Set(seen.map((event) => event.itemId))).toEqual(
      new Set(items.map((item) => item.id)),
    );
    expect(
      await db().priceChangeEvent.count({
        where: { itemId: { in: items.map((item) => item.id) }, processedAt: null },
      }),
    ).toBe(0);
  });

  it("stops at maxEvents and says more may be due; the next run takes the rest", async () => {
    await db().priceChangeEvent.updateMany({
      where: { processedAt: null },
      data: { processedAt: new Date() },
    });
    const store = await createStore();
    const items = await Promise.all(
      Array.from({ length: 5 }, () => createItem({ storeId: store.id, priceCents: 9000 })),
    );
    await setItemPrices(
      db(),
      items.map((item) => ({ itemId: item.id, priceCents: 4500 })),
      { now: new Date() },
    );
    const { seen, handler } = recording();
    expect(
      await processPriceChanges(db(), {
        now: () => new Date(),
        handlers: [handler],
        batch: 2,
        maxEvents: 3,
      }),
    ).toEqual({ processed: 3, failed: 0, more: true });
    expect(
      await processPriceChanges(db(), {
        now: () => new Date(),
        handlers: [handler],
        batch: 2,
        maxEvents: 3,
      }),
    ).toEqual({ processed: 2, failed: 0, more: false });
    expect(new Set(seen.map((event) => event.itemId))).toEqual(
      new Set(items.map((item) => item.id)),
    );
    expect(seen).toHaveLength(5);
  });

  it("a change made while no processor ran is acted on when one starts; a failing handler leaves it for a retry", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, priceCents: 9000 });
    const { eventId } = await setItemPrice(
      db(),
      { itemId: item.id, priceCents: 100 },
      { now: new Date() },
    );
    const failing: PriceChangeHandler = {
      name: "down",
      handle: async () => {
        throw new Error("dependency down");
      },
    };
    const failed = await processPriceChanges(db(), {
      now: () => new Date(),
      ids: [eventId!],
      handlers: [failing],
    });
    expect(failed).toEqual({ processed: 0, failed: 1, more: false });
    const waiting = await db().priceChangeEvent.findUniqueOrThrow({ where: { id: eventId! } });
    expect(waiting).toMatchObject({ processedAt: null, attempts: 1, lastError: "dependency down" });
    // Later (past the retry delay) a fresh processor takes it and handles it once.
    const { seen, handler } = recording();
    const later = new Date(Date.now() + 60_000);
    expect(
      await processPriceChanges(db(), { now: () => later, ids: [eventId!], handlers: [handler] }),
    ).toEqual({ processed: 1, failed: 0, more: false });
    expect(seen.map((event) => event.id)).toEqual([eventId]);
    expect(
      await processPriceChanges(db(), { now: () => later, ids: [eventId!], handlers: [handler] }),
    ).toEqual({ processed: 0, failed: 0, more: false });
  });
});
