/**
 * An item's cover and availability, kept in its own columns by triggers on item_images and variants
 * (ADR 0133) and read from them by every card: the search page's rows, the emails' item cards, the
 * search watches' match facts, the quote's picture and the item's page. The columns follow each kind of write (one
 * row, a bulk statement, an update that moves a row to another item, a delete), and, for every item
 * of this database at the end, equal the rules computed from the tables themselves.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { createCaller } from "../edges/trpc/caller";
import { db } from "../platform/db";
import { createInnerContext } from "../platform/trpc/context";
import { poolSql } from "../platform/sql";
import { findItemCards, loadProductSummaries } from "./store/products";
import { loadQuotableItems } from "./store/stock";
import { readMatchFacts } from "./store/match-facts";
import { listItems } from "./list-items";
import { absolute } from "./product-json";

let storeId: number;

const partner = () =>
  createCaller(
    createInnerContext({
      requestId: "test",
      actor: {
        kind: "client",
        clientId: "cli_test",
        tokenId: "tok_test",
        scopes: ["catalog:read"],
      },
    }),
  );

beforeAll(async () => {
  storeId = (await createStore()).id;
});

/** What each reader says of the item's cover and availability. */
const cardOf = async (itemId: number) => {
  const summary = (await loadProductSummaries([itemId])).get(itemId);
  const card = (await findItemCards(poolSql, [itemId])).get(itemId);
  const [facts] = await readMatchFacts(poolSql, [itemId]);
  const [quotable] = await loadQuotableItems(poolSql, [itemId]);
  // One cover, whoever reads it.
  expect(card?.coverUrl).toBe(summary?.coverUrl);
  expect(quotable.images.map((image) => image.url)).toEqual(
    summary?.coverUrl ? [summary.coverUrl] : [],
  );
  // The store can sell and the item is active in these tests: can sell now = available.
  expect(facts.canSellNow).toBe(summary?.isAvailable);
  // The item's own page says the same.
  const detail = await partner().catalog.getProduct({ id: itemId });
  expect(detail.available).toBe(summary?.isAvailable);
  expect(detail.cover_image).toBe(summary?.coverUrl ? absolute(summary.coverUrl) : null);
  return { cover: summary?.coverUrl ?? null, available: summary?.isAvailable };
};

const image = (itemId: number, url: string, position: number, isCover = true) =>
  db().itemImage.create({ data: { itemId, url, position, isCover } });

describe("the cover", () => {
  it("is the first cover image by position, then id, whatever order they are written in", async () => {
    const item = await createItem({ storeId });
    const listed = await db().itemImage.findFirstOrThrow({ where: { itemId: item.id } });
    expect((await cardOf(item.id)).cover).toBe(listed.url);
    // The factory's cover is at position 0: a later one at position 1 does not replace it...
    await image(item.id, "/later.png", 1);
    expect((await cardOf(item.id)).cover).toBe(listed.url);
    // ...one before it does, and an image that is not a cover never does.
    await image(item.id, "/not-a-cover.png", -5, false);
    await image(item.id, "/first.png", -1);
    expect((await cardOf(item.id)).cover).toBe("/first.png");
    // Two covers at one position: the older (smaller id) first.
    await image(item.id, "/tied.png", -1);
    expect((await cardOf(item.id)).cover).toBe("/first.png");
  });

  it("follows updates (a position, the cover flag, a row moved to another item) and deletes", async () => {
    const [item, other] = [await createItem({ storeId }), await createItem({ storeId })];
    await db().itemImage.deleteMany({ where: { itemId: { in: [item.id, other.id] } } });
    expect((await cardOf(item.id)).cover).toBeNull();
    const a = await image(item.id, "/a.png", 0);
    const b = await image(item.id, "/b.png", 1);
    expect((await cardOf(item.id)).cover).toBe("/a.png");
    await db().itemImage.update({ where: { id: b.id }, data: { position: -1 } });
    expect((await cardOf(item.id)).cover).toBe("/b.png");
    await db().itemImage.update({ where: { id: b.id }, data: { isCover: false } });
    expect((await cardOf(item.id)).cover).toBe("/a.png");
    // Moved to another item: both items' covers change in the one statement.
    await db().itemImage.update({ where: { id: a.id }, data: { itemId: other.id } });
    expect((await cardOf(item.id)).cover).toBeNull();
    expect((await cardOf(other.id)).cover).toBe("/a.png");
    await db().itemImage.deleteMany({ where: { id: a.id } });
    expect((await cardOf(other.id)).cover).toBeNull();
  });
});

describe("availability", () => {
  it("is true while any variant has quantity left, through every kind of write", async () => {
    const item = await createItem({ storeId, sizes: ["S", "M"], quantity: 1 });
    expect((await cardOf(item.id)).available).toBe(true);
    const [small, medium] = await db().variant.findMany({
      where: { itemId: item.id },
      orderBy: { id: "asc" },
    });
    // One size gone: still available; both gone (in one statement): not.
    await db().variant.update({ where: { id: small.id }, data: { quantity: 0 } });
    expect((await cardOf(item.id)).available).toBe(true);
    await db().variant.updateMany({ where: { itemId: item.id }, data: { quantity: 0 } });
    expect((await cardOf(item.id)).available).toBe(false);
    // A unit given back, a new variant, the variants deleted.
    await db().variant.update({ where: { id: medium.id }, data: { quantity: 2 } });
    expect((await cardOf(item.id)).available).toBe(true);
    await db().variant.updateMany({ where: { itemId: item.id }, data: { quantity: 0 } });
    await db().variant.create({ data: { itemId: item.id, size: "L", sizeKey: "L", quantity: 1 } });
    expect((await cardOf(item.id)).available).toBe(true);
    // A variant moved to another item: both items refreshed.
    const other = await createItem({ storeId, quantity: 0 });
    const large = await db().variant.findFirstOrThrow({ where: { itemId: item.id, size: "L" } });
    await db().variant.update({ where: { id: large.id }, data: { itemId: other.id } });
    expect((await cardOf(item.id)).available).toBe(false);
    expect((await cardOf(other.id)).available).toBe(true);
    await db().variant.deleteMany({ where: { itemId: other.id } });
    expect((await cardOf(other.id)).available).toBe(false);
  });

  it("an item listed with nothing to sell, then stocked in bulk with others", async () => {
    const items = [
      await createItem({ storeId, quantity: 0 }),
      await createItem({ storeId, quantity: 0 }),
    ];
    for (const item of items) expect((await cardOf(item.id)).available).toBe(false);
    await db().variant.updateMany({
      where: { itemId: { in: items.map((item) => item.id) } },
      data: { quantity: 3 },
    });
    for (const item of items) expect((await cardOf(item.id)).available).toBe(true);
  });
});

it("a new listing: available when listed with a unit, without a cover until a picture is added", async () => {
  const store = await db().store.findUniqueOrThrow({ where: { id: storeId } });
  const listing = (quantity: number) => ({
    title: `Listed ${quantity}`,
    brand: null,
    description: "New in.",
    categoryPath: null,
    priceCents: 3_000,
    condition: "good" as const,
    sizes: ["M"],
    color: "red",
    quantity,
  });
  const { itemIds } = await listItems(store.slug, [listing(1), listing(0)], { now: new Date() });
  expect(await Promise.all(itemIds.map(cardOf))).toEqual([
    { cover: null, available: true },
    { cover: null, available: false },
  ]);
});

it("every item's columns equal the rules computed from its images and variants", async () => {
  const disagreeing = await db().$queryRaw<{ id: number }[]>`
    SELECT i.id FROM items i
    WHERE i.cover_url IS DISTINCT FROM (SELECT m.url FROM item_images m WHERE m.item_id = i.id AND m.is_cover ORDER BY m.position, m.id LIMIT 1)
       OR i.is_available IS DISTINCT FROM EXISTS (SELECT 1 FROM variants v WHERE v.item_id = i.id AND v.quantity > 0)`;
  expect(await db().item.count()).toBeGreaterThan(5);
  expect(disagreeing).toEqual([]);
});
