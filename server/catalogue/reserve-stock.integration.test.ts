/**
 * reserveVariants sends its row locks (in id order) and its update together, so a caller can
 * pipeline more statements behind them (POST /purchases). Two buyers of the same variants, their
 * lines in opposite orders, in a raw `pg` transaction and in a Prisma one, must still wait for each
 * other in id order instead of deadlocking, and take exactly the stock there is.
 */
import { describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { sqlTransaction } from "../platform/sql";
import { reserveVariants } from "./store/stock";

/** Two variants of quantity `quantity` each (two items of one selling store). */
const twoVariants = async (quantity: number) => {
  const store = await createStore();
  const items = [
    await createItem({ storeId: store.id, quantity }),
    await createItem({ storeId: store.id, quantity }),
  ];
  const variants = await db().variant.findMany({
    where: { itemId: { in: items.map((item) => item.id) } },
    orderBy: { id: "asc" },
  });
  return variants.map((variant) => variant.id);
};

const quantities = async (ids: number[]) =>
  (await db().variant.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } })).map(
    (variant) => variant.quantity,
  );

/** Holds the transaction open a moment after reserving, so the two buyers overlap. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

type Lines = { variantId: number; quantity: number }[];

/** `count` buyers at once, every other one with the lines reversed: how many lines each reserved. */
const buyersInOppositeOrders = (
  lines: Lines,
  count: number,
  buy: (lines: Lines) => Promise<number>,
) =>
  Promise.all(Array.from({ length: count }, (_, i) => buy(i % 2 ? [...lines].reverse() : lines)));

describe("reserveVariants under concurrent buyers with lines in opposite orders", () => {
  it("raw pg transactions: no deadlock, each buyer reserves both lines while stock lasts", async () => {
    const ids = await twoVariants(10);
    const lines = ids.map((variantId) => ({ variantId, quantity: 1 }));
    const buy = (ordered: Lines) =>
      sqlTransaction(async (sql) => {
        const reserved = await reserveVariants(sql, ordered);
        await pause();
        return reserved.size;
      });
    expect(await buyersInOppositeOrders(lines, 10, buy)).toEqual(Array(10).fill(2));
    expect(await quantities(ids)).toEqual([0, 0]);
    // Stock gone: nothing more is reserved, and nothing goes below zero.
    expect(await buy(lines)).toBe(0);
    expect(await quantities(ids)).toEqual([0, 0]);
  });

  it("Prisma transactions (the hosted checkout's): the same", async () => {
    const ids = await twoVariants(6);
    const lines = ids.map((variantId) => ({ variantId, quantity: 1 }));
    const buy = (ordered: Lines) =>
      db().$transaction(async (tx) => {
        const reserved = await reserveVariants(tx, ordered);
        await pause();
        return reserved.size;
      });
    expect(await buyersInOppositeOrders(lines, 6, buy)).toEqual(Array(6).fill(2));
    expect(await quantities(ids)).toEqual([0, 0]);
  });
});
