/**
 * The in-memory search must answer exactly as pg-search, the PostgreSQL reference: same ids in the
 * same order, same total, same facet values and counts in the same order. 200 seeded random queries
 * over a generated catalogue plus hand-made edge cases (ties, code-point order, no brand, no
 * category, top-level categories, stores that cannot sell, one for want of a shipping rate).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createItem, createPartner, createPerson, createStore } from "../../../../prisma/factories";
import { randomId } from "../../../core/ids";
import { seedCatalog } from "../../../../prisma/seed/catalog";
import { db } from "../../../platform/db";
import {
  randomSearchQueries,
  loadSearchVocabulary,
  searchQuery as query,
} from "../../../testing/random-search-queries";
import { createPgSearch } from "../pg-search";
import type { CatalogSearch, SearchQuery } from "../types";
import { CatalogSync } from "./catalog-sync";
import { createMemorySearch } from "./memory-search";
import { inThisThread } from "./index-host";
import { evaluatePriceRange } from "./price-range";
import { bucketsPerPriceGroup } from "./browse-counts";
import { evaluationCost, planOf } from "./query-plan";

let sync: CatalogSync;
let reference: CatalogSearch;
let memory: CatalogSearch;
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await seedCatalog(client, { items: 4000, stores: 14, seed: 23 });
  // Edge cases the generator does not make.
  const store = await createStore({ slug: "edge-cases" });
  const created = new Date("2026-06-01T00:00:00Z");
  // Same count, values differing above U+FFFF and at U+E000: code-point order puts U+E000 first.
  await createItem({
    storeId: store.id,
    brand: "Zed \u{1F600}",
    title: "Emoji tee",
    createdAt: created,
  });
  await createItem({
    storeId: store.id,
    brand: "Zed \uE000",
    title: "Private use tee",
    createdAt: created,
  });
  await createItem({
    storeId: store.id,
    brand: null,
    title: "Unbranded wool coat",
    categoryPath: "Women",
    priceCents: 4999,
    createdAt: created,
  });
  await createItem({
    storeId: store.id,
    title: "Uncategorised wool coat",
    priceCents: 4999,
    createdAt: created,
  });
  await createItem({
    storeId: store.id,
    title: "Coat O'Brien back\\slash",
    categoryPath: "Outlet > Coats",
    priceCents: 4999,
    sizes: ["MD", "L"],
    createdAt: created,
  });
  // A word nearly every item has in its description (class D) and these have in the title (A): old
  // items that relevance must still put first.
  for (const title of ["Colour block tee", "Colour wash jeans", "Colour story scarf"]) {
    await createItem({ storeId: store.id, title, createdAt: new Date("2020-01-01T00:00:00Z") });
  }
  // A store with no shipping rate cannot ship, so cannot sell (server/core/store-can-sell.ts).
  const rateless = await createStore({ slug: "no-shipping-rates" });
  await createItem({
    storeId: rateless.id,
    title: "Rateless wool coat",
    priceCents: 4999,
    createdAt: created,
  });
  await db().shippingRate.deleteMany({ where: { storeId: rateless.id } });
  sync = new CatalogSync({ databaseUrl: process.env.DATABASE_URL!, catchUpMs: 600_000 });
  await sync.start();
  reference = createPgSearch(db());
  memory = createMemorySearch({ host: inThisThread(sync), fallback: reference });
}, 120_000);

afterAll(async () => {
  await sync?.stop();
  await client?.end();
});

describe("memory search equals pg-search", () => {
  it("for 200 seeded random queries", async () => {
    const queries = randomSearchQueries(await loadSearchVocabulary(client), {
      seed: 20261122,
      count: 200,
    });
    let withHits = 0;
    for (const [number, search] of queries.entries()) {
      const expected = await reference.search(search);
      const actual = await memory.search(search);
      expect({ number, search, ...actual }).toEqual({ number, search, ...expected });
      if (expected.ids.length) withHits++;
    }
    // The comparison is only worth something if most queries return a page.
    expect(withHits).toBeGreaterThan(100);
  }, 120_000);

  it("after a closed store, sales, price changes and retitled items (incremental counts stay exact)", async () => {
    // The store goes first: closing one recounts the browse counts, which would hide drift from the rest.
    const store = await db().store.findFirstOrThrow({
      where: { isOpen: true, canShip: true, canTakePayment: true, items: { some: {} } },
      orderBy: { id: "desc" },
    });
    await db().store.update({ where: { id: store.id }, data: { isOpen: false } });
    const soldIds = (
      await client.query<{ id: number }>(
        "SELECT id FROM items WHERE status = 'active' AND store_id <> $1 ORDER BY id LIMIT 60",
        [store.id],
      )
    ).rows.map((row) => row.id);
    await db().item.updateMany({
      where: { id: { in: soldIds.slice(0, 30) } },
      data: { status: "sold" },
    });
    for (const id of soldIds.slice(30, 45))
      await db().item.update({ where: { id }, data: { priceCents: { increment: 777 } } });
    for (const id of soldIds.slice(45))
      await db().item.update({
        where: { id },
        data: { title: `Retitled ${id} quokka`, colors: ["teal"] },
      });
    // The retitles came last: once memory search finds all of them, every earlier change is applied too.
    const retitled = query({ text: "quokka" });
    const expected = await reference.search(retitled);
    expect(expected.total).toBeGreaterThan(0);
    await vi.waitFor(
      async () => expect((await memory.search(retitled)).total).toBe(expected.total),
      { timeout: 2000 },
    );
    await sync.settled();
    const queries = randomSearchQueries(await loadSearchVocabulary(client), { seed: 7, count: 60 });
    for (const search of [
      ...queries,
      query({ sort: "newest" }),
      query({ sort: "price_desc", page: 3 }),
      retitled,
      query({ colors: ["teal"] }),
      query({ storeSlug: store.slug }),
    ]) {
      expect({ search, ...(await memory.search(search)) }).toEqual({
        search,
        ...(await reference.search(search)),
      });
    }
  }, 60_000);

  it.each<[string, Partial<SearchQuery>]>([
    ["ties on price, both price orders", { sort: "price_asc", minCents: 4999, maxCents: 4999 }],
    [
      "ties on price, descending",
      { sort: "price_desc", minCents: 4999, maxCents: 4999, perPage: 3, page: 2 },
    ],
    ["ties on creation time", { sort: "newest", storeSlug: "edge-cases" }],
    ["relevance ties on score", { text: "wool coat", sort: "relevance", perPage: 48 }],
    ["code-point order of facet values", { storeSlug: "edge-cases", text: "tee" }],
    ["top-level category", { categoryPath: "Women", text: "coat" }],
    ["a category only edge items use", { categoryPath: "Outlet" }],
    ["sizes spelled differently", { sizeKeys: ["M"], storeSlug: "edge-cases" }],
    ["stop words only", { text: "the of and", sort: "relevance", page: 3 }],
    ["punctuation in q", { text: "O'Brien back\\slash" }],
    [
      "every facet filtered at once",
      {
        categoryPath: "Women",
        sizeKeys: ["M", "S"],
        colors: ["black", "navy"],
        brands: ["Roots", "Zara"],
        storeSlug: "edge-cases",
        minCents: 1000,
        maxCents: 90000,
      },
    ],
    ["deep page", { sort: "newest", page: 60, perPage: 48 }],
    [
      "a word every item has (broad q), relevance",
      { text: "colour", sort: "relevance", perPage: 48 },
    ],
    [
      "broad q, relevance, second page",
      { text: "colour", sort: "relevance", page: 2, perPage: 48 },
    ],
    [
      "broad q, newest and price, deep",
      { text: "colour sizes", sort: "price_desc", page: 30, perPage: 48 },
    ],
    ["broad q, newest", { text: "sizes", sort: "newest", perPage: 13, page: 3 }],
    ["page past the end", { sort: "price_desc", page: 2000, perPage: 48 }],
  ])("%s", async (_name, overrides) => {
    const search = query(overrides);
    expect(await memory.search(search)).toEqual(await reference.search(search));
  });

  it("one word alone: its kept counts give the reference's answers in every order, and follow sales, price changes, new listings and a closed store", async () => {
    // The words most items have (each takes the word path: one lexeme, nothing else).
    const { rows } = await client.query<{ word: string }>(
      `SELECT word FROM ts_stat('SELECT search_vector FROM items') ORDER BY ndoc DESC, word LIMIT 12`,
    );
    const words = rows
      .map((row) => row.word)
      .filter((word) => {
        const plan = planOf(sync.index!, query({ text: word }), [word]);
        return plan.path === "word";
      });
    expect(words.length).toBeGreaterThan(3);
    const searches = words.flatMap((word) =>
      (["relevance", "newest", "price_asc", "price_desc"] as const).flatMap((sort) => [
        query({ text: word, sort }),
        query({ text: word, sort, page: 4, perPage: 13 }),
      ]),
    );
    const compareAll = async () => {
      for (const search of searches)
        expect({ search, ...(await memory.search(search)) }).toEqual({
          search,
          ...(await reference.search(search)),
        });
    };
    // Counted once here; every change below must reach the kept counts.
    await compareAll();
    const word = words[0];
    const having = (
      await client.query<{ id: number; store_id: number }>(
        `SELECT id, store_id FROM items WHERE status = 'active' AND search_vector @@ to_tsquery('english', $1) ORDER BY id LIMIT 40`,
        [word],
      )
    ).rows;
    await db().item.updateMany({
      where: { id: { in: having.slice(0, 10).map((row) => row.id) } },
      data: { status: "sold" },
    });
    for (const { id } of having.slice(10, 20))
      await db().item.update({ where: { id }, data: { priceCents: { increment: 1234 } } });
    // Retitled without the word (a new slot without it), and new items with it.
    for (const { id } of having.slice(20, 25))
      await db().item.update({ where: { id }, data: { title: `Retitled ${id} wombat` } });
    for (const n of [1, 2, 3])
      await createItem({
        storeId: having[0].store_id,
        title: `${word} ${n} wombat`,
        priceCents: 1000 * n,
      });
    const last = query({ text: "wombat", sort: "newest" });
    const expected = await reference.search(last);
    await vi.waitFor(async () => expect((await memory.search(last)).total).toBe(expected.total), {
      timeout: 2000,
    });
    await sync.settled();
    await compareAll();
    // A store that stops selling, then sells again, recounts everything: the words are counted again when next asked.
    for (const canShip of [false, true]) {
      await db().store.update({ where: { id: having[30].store_id }, data: { canShip } });
      await vi.waitFor(
        async () =>
          expect(await memory.search(searches[0])).toEqual(await reference.search(searches[0])),
        { timeout: 2000 },
      );
      await sync.settled();
      await compareAll();
    }
  }, 120_000);

  it("a price range alone: the price groups inside it summed and its edges scanned give the reference's answers, also after prices move and the buckets are rebalanced", async () => {
    const { rows } = await client.query<{ price: number }>(
      "SELECT DISTINCT price_cents AS price FROM items ORDER BY 1",
    );
    const prices = rows.map((row) => row.price);
    const at = (share: number) => prices[Math.floor(share * (prices.length - 1))];
    // Ranges that end exactly at the edges of price groups, and one cent either side, with items at those prices.
    const groupSpans = [10, 30, 50].map((group) =>
      sync.index!.buckets.priceSpan(
        group * bucketsPerPriceGroup,
        (group + 3) * bucketsPerPriceGroup - 1,
      ),
    );
    const edgeStore = await db().store.findFirstOrThrow({ where: { slug: "edge-cases" } });
    for (const price of groupSpans.flat())
      for (const title of ["Edge priced scarf", "Edge priced hat"])
        await createItem({ storeId: edgeStore.id, title, priceCents: price });
    await sync.settledAfterCommits();
    const ranges: Partial<SearchQuery>[] = [
      ...groupSpans.flatMap(([least, most]) => [
        { minCents: least, maxCents: most },
        { minCents: least + 1, maxCents: most - 1 },
        { minCents: least - 1, maxCents: most + 1 },
      ]),
      { minCents: at(0.1), maxCents: at(0.9) },
      { minCents: at(0.3), maxCents: at(0.35) },
      { minCents: at(0.5) },
      { maxCents: at(0.2) },
      { minCents: at(0.6), maxCents: at(0.6) },
      { minCents: at(0.4) + 1, maxCents: at(0.7) - 1 },
      { minCents: 0, maxCents: prices[prices.length - 1] },
      { minCents: prices[prices.length - 1] + 1 },
    ];
    const compare = async () => {
      const index = sync.index!;
      for (const range of ranges)
        for (const sort of ["relevance", "newest", "price_asc", "price_desc"] as const)
          for (const page of [1, 2, 9]) {
            const search = query({ ...range, sort, page, perPage: 48 });
            const expected = await reference.search(search);
            expect({ search, ...evaluatePriceRange(index, search) }).toEqual({
              search,
              ...expected,
            });
            // A stop word or a word every item has leaves the same price range.
            const worded = { ...search, text: "the colour" };
            expect({ worded, ...(await memory.search(worded)) }).toEqual({
              worded,
              ...(await reference.search(worded)),
            });
          }
    };
    await compare();
    // Prices moved across groups, items sold and listed: the groups' counts follow each change.
    const { rows: moved } = await client.query<{ id: number }>(
      "SELECT id FROM items WHERE status = 'active' ORDER BY id DESC LIMIT 90",
    );
    for (const [number, { id }] of moved.entries()) {
      if (number % 3 === 0) await db().item.update({ where: { id }, data: { status: "sold" } });
      else
        await db().item.update({
          where: { id },
          data: { priceCents: number % 2 ? at(0.05) : at(0.95) + number },
        });
    }
    await createItem({
      storeId: edgeStore.id,
      title: "Late wool coat",
      priceCents: at(0.3),
    });
    await sync.settledAfterCommits();
    await compare();
    sync.index!.rebalanceBuckets();
    await compare();
  }, 120_000);

  it("price_watchers: the same counts for every viewer, for seeded random watches and alerts, and after they change", async () => {
    // Seven people, each with live and ended watches and alerts on random items (some people on the same items).
    const { client: app } = await createPartner();
    const people = await Promise.all(
      Array.from({ length: 7 }, async () => (await createPerson()).person.id),
    );
    const itemIds = (
      await client.query<{ id: number }>("SELECT id FROM items ORDER BY id LIMIT 300")
    ).rows.map((row) => row.id);
    let seed = 42;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const watchStatuses = ["active", "executing", "fulfilled", "cancelled", "needs_you"] as const;
    const alertStatuses = ["active", "active", "notified", "stopped"] as const;
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db().priceWatch.createMany({
      data: Array.from({ length: 400 }, () => ({
        personId: people[next(7)],
        clientId: app.id,
        itemId: itemIds[next(60)],
        maxPriceCents: 100,
        maxTotalCents: 200,
        status: watchStatuses[next(5)],
        expiresAt,
      })),
    });
    await db().priceAlert.createMany({
      data: Array.from({ length: 400 }, () => ({
        id: randomId("alr_"),
        personId: people[next(7)],
        clientId: app.id,
        itemId: itemIds[next(80)],
        targetPriceCents: 100,
        status: alertStatuses[next(4)],
      })),
    });
    const compare = async () => {
      for (const viewer of [undefined, ...people, "per_nobody"]) {
        expect({ viewer, counts: await memory.priceWatchers(itemIds, viewer) }).toEqual({
          viewer,
          counts: await reference.priceWatchers(itemIds, viewer),
        });
      }
    };
    await vi.waitFor(
      async () => {
        await sync.settled();
        await compare();
      },
      { timeout: 5000 },
    );
    const counts = await reference.priceWatchers(itemIds, undefined);
    expect(counts.filter((count) => count > 1).length).toBeGreaterThan(10);
    // Changes of many rows in one statement each: alerts stopped, watches claimed, watches deleted.
    await db().priceAlert.updateMany({
      where: { personId: people[0], status: "active" },
      data: { status: "stopped" },
    });
    await db().priceWatch.updateMany({
      where: { personId: people[1], status: "active" },
      data: { status: "executing" },
    });
    await db().priceWatch.deleteMany({ where: { personId: people[2] } });
    await vi.waitFor(
      async () => {
        await sync.settled();
        await compare();
      },
      { timeout: 5000 },
    );
    // A delete nobody announced (triggers off): the catch-up sees the live total differ and reloads every count.
    await client.query("SET session_replication_role = replica");
    try {
      await client.query("DELETE FROM price_alerts WHERE person_id = $1", [people[3]]);
    } finally {
      await client.query("SET session_replication_role = origin");
    }
    await sync.catchUpNow();
    await sync.settled();
    await compare();
  }, 60_000);

  it("plans each query onto one path, and the search thread's cost estimate follows the plan", async () => {
    const index = sync.index!;
    const price = { minCents: 1000, maxCents: 20000 };
    const paths: [Partial<SearchQuery>, string[], string][] = [
      [{ sort: "newest" }, [], "browse"],
      [{ categoryPath: "Women", sort: "price_drop", nowMs: Date.now() }, [], "browse"],
      [price, [], "priceRange"],
      [{ ...price, categoryPath: "Women" }, [], "scan"],
      [{ ...price, sort: "price_drop", nowMs: Date.now() }, [], "scan"],
      [{ ...price, onSale: true, nowMs: Date.now() }, [], "scan"],
      [{ brands: ["Roots"] }, [], "scan"],
      [{}, ["wool"], "word"],
      [{ sort: "price_drop", nowMs: Date.now() }, ["wool"], "scan"],
      [{ categoryPath: "Women" }, ["wool"], "scan"],
      [{}, ["wool", "coat"], "scan"],
    ];
    for (const [overrides, lexemes, path] of paths)
      expect({ overrides, lexemes, path: planOf(index, query(overrides), lexemes).path }).toEqual({
        overrides,
        lexemes,
        path,
      });
    const cost = (overrides: Partial<SearchQuery>, lexemes: string[] = []) =>
      evaluationCost(index, query(overrides), lexemes);
    const woolItems = index.postings.get("wool")!.count;
    expect(cost({ sort: "newest" })).toBe(0);
    expect(cost(price)).toBe(index.slotCount / 32);
    // A word alone: its postings counted by its first search, nothing after.
    index.browse.words.clear();
    expect(cost({}, ["wool"])).toBe(woolItems);
    await memory.search(query({ text: "wool" }));
    expect(cost({}, ["wool"])).toBe(0);
    expect(cost({ brands: ["Roots"] }, ["wool"])).toBe(woolItems);
    // A filter without a word: the slots it lets through and a pass over its column when fewer
    // than most (filter-driven.ts), else every slot.
    const rootsItems = index.browse.listed().brand[index.brands.find("Roots")];
    expect(rootsItems).toBeGreaterThan(0);
    expect(cost({ brands: ["Roots"] })).toBeGreaterThan(rootsItems);
    expect(cost({ brands: ["Roots"] })).toBeLessThan(index.slotCount);
    expect(cost({ brands: index.brands.values })).toBe(index.slotCount);
    expect(cost({}, ["wool", "nosuchword"])).toBe(0);
  });

  it("answers through pg-search until the index is built", async () => {
    const unbuilt = new CatalogSync({ databaseUrl: process.env.DATABASE_URL! });
    const search = createMemorySearch({ host: inThisThread(unbuilt), fallback: reference });
    const browse = query({ sort: "newest" });
    expect(unbuilt.index).toBeUndefined();
    expect(await search.search(browse)).toEqual(await reference.search(browse));
  });
});
