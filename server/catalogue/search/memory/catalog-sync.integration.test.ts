/**
 * Freshness of the in-memory index: changes written to PostgreSQL through the normal write path
 * (Prisma, which fires the NOTIFY triggers) show in memory search within a second; the periodic
 * catch-up finds changes no notification announced; a count mismatch (rows deleted silently)
 * rebuilds the index. After each change the answer must again equal pg-search's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCategory, createItem, createStore } from "../../../../prisma/factories";
import { db } from "../../../platform/db";
import { createPgSearch } from "../pg-search";
import type { CatalogSearch, SearchQuery } from "../types";
import { startMemorySearch } from "../../../testing/memory-index";
import type { CatalogSync } from "./catalog-sync";
import { writeSilently } from "../../../testing/silent-writes";

let sync: CatalogSync;
let memory: CatalogSearch;
const reference = () => createPgSearch(db());
const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  sizeKeys: [],
  colors: [],
  brands: [],
  sort: "newest",
  page: 1,
  perPage: 48,
  ...overrides,
});

/** Waits (at most the 1 s freshness target) until memory search answers `search` as `accept` wants. */
const eventually = async (
  search: SearchQuery,
  accept: (ids: number[], total: number) => boolean,
) => {
  const started = Date.now();
  await vi.waitFor(
    async () => {
      const hits = await memory.search(search);
      expect(accept(hits.ids, hits.total)).toBe(true);
    },
    { timeout: 1000, interval: 10 },
  );
  expect(await memory.search(search)).toEqual(await reference().search(search));
  return Date.now() - started;
};

beforeAll(async () => {
  ({ sync, memory } = await startMemorySearch());
}, 60_000);

afterAll(async () => {
  await sync?.stop();
});

describe("the in-memory index follows PostgreSQL", () => {
  it("listens for changes (the self-test notification arrived)", () => {
    expect(sync.isListening).toBe(true);
  });

  it("a new item appears, a sold item disappears, a price change reorders", async () => {
    const store = await createStore();
    const cheap = await createItem({
      storeId: store.id,
      title: "Freshness probe parka",
      priceCents: 1000,
    });
    const dear = await createItem({
      storeId: store.id,
      title: "Freshness probe parka",
      priceCents: 2000,
    });
    const byPrice = query({ storeSlug: store.slug, sort: "price_asc" });
    await eventually(byPrice, (ids) => ids.length === 2);
    expect((await memory.search(byPrice)).ids).toEqual([cheap.id, dear.id]);

    await db().item.update({ where: { id: cheap.id }, data: { priceCents: 3000 } });
    await eventually(byPrice, (ids) => ids[0] === dear.id);

    await db().item.update({ where: { id: dear.id }, data: { status: "sold" } });
    await eventually(byPrice, (ids) => ids.length === 1 && ids[0] === cheap.id);
  });

  it("closing a store hides its items; reopening lists them again", async () => {
    const store = await createStore();
    await createItem({ storeId: store.id, title: "Store probe toque" });
    const search = query({ text: "store probe toque" });
    await eventually(search, (_ids, total) => total === 1);
    await db().store.update({ where: { id: store.id }, data: { canShip: false } });
    await eventually(search, (_ids, total) => total === 0);
    await db().store.update({ where: { id: store.id }, data: { canShip: true } });
    await eventually(search, (_ids, total) => total === 1);
  });

  it("a store losing its last shipping rate hides its items; a new rate lists them again", async () => {
    const store = await createStore();
    await createItem({ storeId: store.id, title: "Rate probe mitten" });
    const search = query({ text: "rate probe mitten" });
    await eventually(search, (_ids, total) => total === 1);
    await db().shippingRate.deleteMany({ where: { storeId: store.id } });
    await eventually(search, (_ids, total) => total === 0);
    await db().shippingRate.create({
      data: {
        storeId: store.id,
        key: "standard",
        label: "Canada Post",
        baseCents: 995,
        perItemCents: 250,
        remoteSurchargeCents: 1500,
        minDays: 4,
        maxDays: 9,
      },
    });
    await eventually(search, (_ids, total) => total === 1);
  });

  it("a new title is found by its new words only (the item moves to a new slot)", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Retitled zanzibar scarf" });
    await eventually(query({ text: "zanzibar" }), (ids) => ids.includes(item.id));
    await db().item.update({ where: { id: item.id }, data: { title: "Retitled quokka scarf" } });
    await eventually(query({ text: "quokka" }), (ids) => ids.includes(item.id));
    expect((await memory.search(query({ text: "zanzibar" }))).total).toBe(0);
  });

  it("new categories and deleted items", async () => {
    const store = await createStore();
    const item = await createItem({
      storeId: store.id,
      title: "Category probe",
      categoryPath: "Freshness > Probes",
    });
    const search = query({ categoryPath: "Freshness" });
    await eventually(search, (ids) => ids.includes(item.id));
    await db().category.update({
      where: { path: "Freshness > Probes" },
      data: { path: "Freshness > Renamed" },
    });
    await eventually(query({ categoryPath: "Freshness > Renamed" }), (ids) =>
      ids.includes(item.id),
    );
    await createCategory("Freshness > Empty");
    await db().item.delete({ where: { id: item.id } });
    await eventually(search, (_ids, total) => total === 0);
  });

  it("a price change and a sale are visible in well under a second", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Latency probe", priceCents: 5000 });
    const search = query({ storeSlug: store.slug });
    await eventually(search, (ids) => ids.length === 1);
    await db().item.update({ where: { id: item.id }, data: { priceCents: 4000 } });
    const priceMs = await eventually(
      query({ storeSlug: store.slug, maxCents: 4500 }),
      (ids) => ids.length === 1,
    );
    await db().item.update({ where: { id: item.id }, data: { status: "sold" } });
    const soldMs = await eventually(search, (ids) => ids.length === 0);
    expect(Math.max(priceMs, soldMs)).toBeLessThan(1000);
  });
});

describe("the catch-up (safety net behind NOTIFY)", () => {
  /** Writes with every trigger off, as if the notification were lost. */
  const silently = (sql: string, values: unknown[]) => writeSilently([[sql, values]]);

  it("finds a change no notification announced, by updated_at", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Silent probe", priceCents: 7000 });
    const search = query({ storeSlug: store.slug, maxCents: 6000 });
    await eventually(query({ storeSlug: store.slug }), (ids) => ids.length === 1);
    await silently("UPDATE items SET price_cents = 5000, updated_at = now() WHERE id = $1", [
      item.id,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await memory.search(search)).total).toBe(0);
    await sync.catchUpNow();
    expect((await memory.search(search)).ids).toEqual([item.id]);
  });

  it("rebuilds when the item count disagrees (a silent delete)", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Silent delete probe" });
    const search = query({ storeSlug: store.slug });
    await eventually(search, (ids) => ids.length === 1);
    const rebuilds = sync.stats.rebuilds;
    const oldVersion = sync.index!.version;
    await silently("DELETE FROM items WHERE id = $1", [item.id]);
    await sync.catchUpNow();
    await sync.settled();
    expect(sync.stats.rebuilds).toBe(rebuilds + 1);
    // The page cache keys on the version: the new index never repeats one the old one had.
    expect(sync.index!.version).toBeGreaterThan(oldVersion);
    expect(await memory.search(search)).toEqual(await reference().search(search));
    expect((await memory.search(search)).total).toBe(0);
  });

  it("plain SQL updates bump updated_at, so the catch-up sees them too", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, title: "Touch probe" });
    const before = (await db().item.findUniqueOrThrow({ where: { id: item.id } })).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await db().$executeRaw`UPDATE items SET price_cents = 1234 WHERE id = ${item.id}`;
    const after = (await db().item.findUniqueOrThrow({ where: { id: item.id } })).updatedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });
});
