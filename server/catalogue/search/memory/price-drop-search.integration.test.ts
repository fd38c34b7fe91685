/**
 * sort=price_drop and on_sale (ADR 0115): the in-memory index answers exactly as pg-search and as the
 * brute-force oracle, for random and hand-made searches over a catalogue whose prices moved at many
 * times (drops, rises, several changes in a week, equal drop ratios, changes older than the windows),
 * at a time now and at later times (a drop ages out of the 7-day window and a sale out of 30 days
 * with no new event); a change made after the index was built shows at once; a time the index does not
 * cover is answered by the reference; the catch-up forgets what aged past the horizon; and through
 * GET /products with a moved clock (no cached answer from an earlier time).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../../../prisma/factories";
import { seedCatalog } from "../../../../prisma/seed/catalog";
import { prng } from "../../../../prisma/seed/prng";
import { createCaller } from "../../../edges/trpc/caller";
import { fixedClock } from "../../../platform/clock";
import { db } from "../../../platform/db";
import { createInnerContext } from "../../../platform/trpc/context";
import {
  expectSearchContract,
  loadOracleItems,
  oracleSearch,
} from "../../../testing/catalog-oracle";
import { loadSearchVocabulary, randomSearchQueries } from "../../../testing/random-search-queries";
import { setItemPrices } from "../../set-item-price";
import { useIndexHost } from "../index";
import { createPgSearch } from "../pg-search";
import type { CatalogSearch, SearchQuery } from "../types";
import { CatalogSync } from "./catalog-sync";
import { createMemorySearch } from "./memory-search";
import { retainMs } from "./recent-prices";
import { inThisThread } from "./index-host";

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
let client: pg.Client;
let sync: CatalogSync;
let reference: CatalogSearch;
let memory: CatalogSearch;
/** The time the prices moved up to. */
let t: number;
/** An item dropped 99% 7 days less 2 hours before t: first by price_drop until it ages out. */
let agingId: number;
let storeSlug: string;

const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  sizeKeys: [],
  colors: [],
  brands: [],
  sort: "price_drop",
  page: 1,
  perPage: 24,
  ...overrides,
});

/** The oracle's copy of the catalogue, read again after a change (undefined). */
let oracleItems: Awaited<ReturnType<typeof loadOracleItems>> | undefined;

/** The three implementations give the same page, total and facets (the oracle: ids only without q). */
const expectSame = async (search: SearchQuery) => {
  const expected = await reference.search(search);
  expect({ search, ...(await memory.search(search)) }).toEqual({ search, ...expected });
  if (!search.text) {
    oracleItems ??= await loadOracleItems();
    const oracle = oracleSearch(oracleItems, search);
    expect({ search, ids: expected.ids, total: expected.total }).toEqual({
      search,
      ids: oracle.ids,
      total: oracle.total,
    });
  }
  return expected;
};

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await seedCatalog(client, { items: 1500, stores: 8, seed: 29 });
  t = Date.now();
  const random = prng(115);
  const ids = (
    await client.query<{ id: number; price_cents: number }>(
      "SELECT id, price_cents FROM items WHERE status = 'active' ORDER BY id LIMIT 400",
    )
  ).rows;
  const prices = new Map(ids.map((row) => [row.id, row.price_cents]));
  // Steps back in time, each moving a random subset of prices in one transaction.
  const steps = [45 * dayMs, 31 * dayMs, 29 * dayMs, 20 * dayMs, 8 * dayMs, 6 * dayMs, 3 * dayMs];
  steps.push(dayMs, 2 * hourMs, hourMs / 2);
  for (const back of steps) {
    const changes = ids
      .filter(() => random() < 0.25)
      .map((row) => {
        const factor = 0.6 + random() * 0.7;
        return {
          itemId: row.id,
          priceCents: Math.max(100, Math.round(prices.get(row.id)! * factor)),
        };
      });
    for (const change of changes) prices.set(change.itemId, change.priceCents);
    await setItemPrices(db(), changes, { now: new Date(t - back) });
  }
  // Equal ratios (50%) at the same time, and a rise after a drop within the week (still a drop).
  const store = await createStore({ slug: "price-drop-edges" });
  storeSlug = store.slug;
  // One after the other: ids in this order.
  const made = [];
  for (const priceCents of [10_000, 2_000, 8_000, 30_000])
    made.push(
      await createItem({ storeId: store.id, priceCents, createdAt: new Date(t - 60 * dayMs) }),
    );
  await setItemPrices(
    db(),
    [
      { itemId: made[0].id, priceCents: 5_000 },
      { itemId: made[1].id, priceCents: 1_000 },
      { itemId: made[2].id, priceCents: 4_000 },
    ],
    { now: new Date(t - 2 * dayMs) },
  );
  await setItemPrices(db(), [{ itemId: made[2].id, priceCents: 6_000 }], {
    now: new Date(t - dayMs),
  });
  agingId = made[3].id;
  await setItemPrices(db(), [{ itemId: agingId, priceCents: 300 }], {
    now: new Date(t - 7 * dayMs + 2 * hourMs),
  });
  sync = new CatalogSync({ databaseUrl: process.env.DATABASE_URL!, catchUpMs: 600_000 });
  await sync.start();
  reference = createPgSearch(db());
  memory = createMemorySearch({ host: inThisThread(sync), fallback: reference });
}, 120_000);

afterAll(async () => {
  useIndexHost(undefined);
  await sync?.stop();
  await client?.end();
});

describe("price_drop and on_sale: memory equals pg-search and the oracle", () => {
  it("for random searches and hand-made ones, now and as time passes", async () => {
    const vocabulary = await loadSearchVocabulary(client);
    for (const nowMs of [t + 1000, t + 2 * hourMs + 1, t + 8 * dayMs, t + 29 * dayMs]) {
      const random = randomSearchQueries(vocabulary, {
        seed: 115,
        count: 80,
        nowMs,
        onSaleShare: 0.3,
      }).map((search, i) =>
        i % 2 === 0 ? { ...search, sort: "price_drop" as const, nowMs } : search,
      );
      let dropped = 0;
      for (const search of [
        ...random,
        query({ nowMs }),
        // Browse pages through the drops and across into the newest rest.
        ...[1, 2, 3, 4, 5, 6, 8].map((page) => query({ nowMs, page, perPage: 48 })),
        query({ nowMs, categoryPath: vocabulary.categories[0], page: 2, perPage: 13 }),
        query({ nowMs, page: 2000, perPage: 48 }),
        query({ nowMs, perPage: 5, page: 7 }),
        query({ nowMs, onSale: true, perPage: 48 }),
        query({ nowMs, onSale: true, sort: "newest", page: 2, perPage: 13 }),
        query({ nowMs, onSale: true, sort: "price_asc", minCents: 2000, maxCents: 20_000 }),
        query({ nowMs, onSale: true, text: "wool" }),
        query({ nowMs, text: "coat", perPage: 48 }),
        query({ nowMs, storeSlug, perPage: 48 }),
        query({ nowMs, onSale: true, storeSlug }),
        query({ nowMs, categoryPath: vocabulary.categories[0], sizeKeys: ["M"] }),
      ]) {
        const expected = await expectSame(search);
        if (search.sort === "price_drop" && expected.ids.length) dropped++;
      }
      expect(dropped).toBeGreaterThan(20);
    }
  }, 180_000);

  it("orders equal drop ratios by id, descending; a rise after a drop in the week keeps the drop", async () => {
    const items = await db().item.findMany({
      where: { store: { slug: storeSlug } },
      orderBy: { id: "asc" },
    });
    const { ids } = await expectSame(query({ nowMs: t + 1000, storeSlug, perPage: 48 }));
    // 99% (aging), 50% and 50% (ids descending), 25% (8,000 -> 4,000 -> 6,000).
    expect(ids).toEqual([items[3].id, items[1].id, items[0].id, items[2].id]);
    const onSale = await expectSame(query({ nowMs: t + 1000, storeSlug, onSale: true }));
    // The 25% one's latest change was a rise: not on sale.
    expect(onSale.ids.sort()).toEqual([items[0].id, items[1].id, items[3].id].sort());
  });

  it("ages a drop out of the 7 days and a sale out of the 30 days without any new event", async () => {
    const first = async (nowMs: number) =>
      (await expectSame(query({ nowMs, storeSlug, perPage: 48 }))).ids[0];
    expect(await first(t + 2 * hourMs - 1)).toBe(agingId);
    expect(await first(t + 2 * hourMs + 1)).not.toBe(agingId);
    const onSale = async (nowMs: number) =>
      (await expectSame(query({ nowMs, storeSlug, onSale: true }))).ids;
    expect(await onSale(t + 23 * dayMs)).toContain(agingId);
    expect(await onSale(t + 23 * dayMs + 3 * hourMs)).not.toContain(agingId);
  });

  it("shows a change made after the build at once, and through GET /products with a moved clock", async () => {
    const [item] = await db().item.findMany({
      where: { store: { slug: storeSlug } },
      orderBy: { id: "asc" },
      take: 1,
    });
    await setItemPrices(db(), [{ itemId: item.id, priceCents: 50 }], { now: new Date(t) });
    oracleItems = undefined;
    await sync.settledAfterCommits();
    await expectSame(query({ nowMs: t + 1000, storeSlug }));
    await expectSame(query({ nowMs: t + 1000, onSale: true, perPage: 48 }));
    useIndexHost(inThisThread(sync));
    const callerAt = (nowMs: number) =>
      createCaller(
        createInnerContext({
          requestId: "test",
          clock: fixedClock(new Date(nowMs)),
          actor: { kind: "client", clientId: "cli_t", tokenId: "tok_t", scopes: ["catalog:read"] },
        }),
      );
    const request = { store: storeSlug, sort: "price_drop" as const, on_sale: "true" as const };
    const items = await db().item.findMany({
      where: { store: { slug: storeSlug } },
      orderBy: { id: "asc" },
    });
    const now = await callerAt(t + 1000).catalog.searchProducts(request);
    // On sale: the item just cut to 0.50 (99.5% below 100.00 in the week), the aging one (99%), the 50% one.
    expect(now.data.map((found) => found.id)).toEqual([item.id, agingId, items[1].id]);
    expect(now.data[0].previous_price).toEqual({ amount: "50.00", currency: "CAD" });
    expectSearchContract(now);
    // The same request 3 days later, within the same second and index version: a fresh answer, in
    // which the aging item's drop has left the week (still on sale: it follows the drops).
    const later = await callerAt(t + 3 * dayMs).catalog.searchProducts(request);
    expect(later.data.map((found) => found.id)).toEqual([item.id, items[1].id, agingId]);
  });

  it("answers a time the index does not cover through pg-search; the catch-up forgets what aged past the horizon", async () => {
    const index = sync.index!;
    expect(index.prices.covers(t + 1000)).toBe(true);
    expect(index.prices.covers(t - 40 * dayMs)).toBe(false);
    await expectSame(query({ nowMs: t - 40 * dayMs, onSale: true }));
    await expectSame(query({ nowMs: t - 40 * dayMs }));
    await sync.catchUpNow();
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT item_id, max(created_at) AS latest FROM price_change_events
       WHERE kind = 'price' GROUP BY item_id) l WHERE l.latest > now() - make_interval(secs => $1::float8 / 1000)`,
      [retainMs],
    );
    expect(index.prices.size).toBe(rows[0].count);
    expect(rows[0].count).toBeGreaterThan(50);
  });
});
