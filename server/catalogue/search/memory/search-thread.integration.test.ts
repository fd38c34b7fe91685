/**
 * The search thread as `npm start` runs it (search-thread.ts): the index built and kept on its own
 * thread answers exactly as pg-search, concurrently and cheapest first, shows a change made after the
 * build, counts watchers, and when the thread is gone the reference answers instead.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../../../prisma/factories";
import { seedCatalog } from "../../../../prisma/seed/catalog";
import { db } from "../../../platform/db";
import {
  randomSearchQueries,
  loadSearchVocabulary,
  searchQuery as query,
} from "../../../testing/random-search-queries";
import { createPgSearch, textLexemes } from "../pg-search";
import type { CatalogSearch } from "../types";
import { createMemorySearch } from "./memory-search";
import { startSearchThread } from "./search-thread";

let client: pg.Client;
let thread: ReturnType<typeof startSearchThread>;
let reference: CatalogSearch;
let memory: CatalogSearch;
const lines: string[] = [];

const waitFor = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await seedCatalog(client, { items: 3000, stores: 12, seed: 31 });
  thread = startSearchThread({
    databaseUrl: process.env.DATABASE_URL!,
    log: (line) => lines.push(line),
  });
  await thread.ready;
  reference = createPgSearch(db());
  memory = createMemorySearch({ host: thread.host, fallback: reference });
}, 120_000);

afterAll(async () => {
  await thread?.host.stop();
  await client?.end();
});

describe("the search thread", () => {
  it("builds the index, says so, and reports its items and version", async () => {
    expect(lines.some((line) => /\[search\] index built: 3000 items/.test(line))).toBe(true);
    expect(thread.host.state().items).toBe(3000);
    expect(thread.host.version()).toEqual(expect.any(Number));
  });

  it("answers 100 seeded random queries, all sent at once, exactly as pg-search", async () => {
    const queries = randomSearchQueries(await loadSearchVocabulary(client), {
      seed: 20261202,
      count: 100,
    });
    const expected = await Promise.all(queries.map((search) => reference.search(search)));
    const lexemes = await Promise.all(queries.map((search) => textLexemes(search.text)));
    // All in the thread's queue together: answered out of order (cheapest first), each to its own
    // request, and by the thread (an undefined answer would be the reference's through memory.search).
    const answers = await Promise.all(
      queries.map((search, number) => thread.host.search(search, lexemes[number])),
    );
    expect(answers).toEqual(expected);
    expect(expected.filter((hits) => hits.ids.length).length).toBeGreaterThan(30);
  }, 60_000);

  it("shows an item listed after the build within a second, with a new version", async () => {
    const store = await createStore({ slug: "thread-new-listing" });
    const before = thread.host.version()!;
    const search = query({ storeSlug: store.slug });
    expect((await memory.search(search)).total).toBe(0);
    const item = await createItem({ storeId: store.id, title: "Quilted thread jacket" });
    await waitFor(async () => (await thread.host.search(search, []))?.total === 1, 1000);
    expect(thread.host.version()).toBeGreaterThan(before);
    expect(await memory.search(search)).toEqual(await reference.search(search));
    expect((await memory.search(search)).ids).toEqual([item.id]);
  });

  it("counts an item's watchers as the reference does", async () => {
    const ids = (await reference.search(query({ sort: "newest" }))).ids;
    expect(await thread.host.priceWatchers(ids, undefined)).toEqual(
      await reference.priceWatchers(ids, undefined),
    );
  });

  it("when the thread dies, pg-search answers until it is started again and has rebuilt", async () => {
    const search = query({ text: "jacket", sort: "newest" });
    const lexemes = await textLexemes(search.text);
    const expected = await reference.search(search);
    // A search in flight when the thread dies is answered all the same (by pg-search if need be).
    const inFlight = memory.search(search);
    await thread.terminate();
    expect(await inFlight).toEqual(expected);
    expect(thread.host.version()).toBeUndefined();
    expect(await thread.host.search(search, lexemes)).toBeUndefined();
    expect(await memory.search(search)).toEqual(expected);
    await waitFor(async () => thread.host.version() !== undefined, 30_000);
    expect(lines.some((line) => /thread exited with code \d+; starting it again/.test(line))).toBe(
      true,
    );
    expect(await thread.host.search(search, lexemes)).toEqual(expected);
    expect(thread.host.state().items).toBe(await db().item.count());
  }, 60_000);

  it("once stopped, hands every search to pg-search", async () => {
    const search = query({ text: "jacket", sort: "price_asc" });
    await thread.host.stop();
    expect(thread.host.version()).toBeUndefined();
    expect(await thread.host.search(search, ["jacket"])).toBeUndefined();
    expect(thread.host.state().items).toBe(0);
    expect(await memory.search(search)).toEqual(await reference.search(search));
  });
});
