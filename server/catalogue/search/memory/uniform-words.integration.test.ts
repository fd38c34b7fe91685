/**
 * A word every item has with the same weight is left out of an in-memory search (evaluate.ts): it
 * matches everything and adds the same to every score. The generator writes "Colour:" and "Sizes:"
 * into every description, so its catalogues have such words. Answers must stay pg-search's with
 * filters, prices, every sort and deep pages, and again once an item has the word in its title (the
 * word then has two weights and is searched for again).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedCatalog } from "../../../../prisma/seed/catalog";
import { db } from "../../../platform/db";
import {
  loadSearchVocabulary,
  type SearchVocabulary,
} from "../../../testing/random-search-queries";
import { createPgSearch } from "../pg-search";
import { type CatalogSearch, type SearchQuery, sortOrders } from "../types";
import { startMemorySearch } from "../../../testing/memory-index";
import type { CatalogSync } from "./catalog-sync";

let sync: CatalogSync;
let reference: CatalogSearch;
let memory: CatalogSearch;
let client: pg.Client;
let vocabulary: SearchVocabulary;

const base = { sizeKeys: [], colors: [], brands: [], page: 1, perPage: 24 };
const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  ...base,
  sort: "relevance",
  ...overrides,
});

/** Lexemes of every item, of which the index holds the same weight on every slot. */
const uniformWords = async () => {
  const { rows } = await client.query<{ word: string }>(
    "SELECT word FROM ts_stat('SELECT search_vector FROM items') WHERE ndoc = (SELECT count(*) FROM items) ORDER BY word",
  );
  const index = sync.index!;
  return rows
    .map((row) => row.word)
    .filter((word) => {
      const list = index.postings.get(word);
      return list !== undefined && index.postings.uniformWeight(list, index.slotCount) > 0;
    });
};

/** A lexeme a third to nine tenths of the items have: dense (postings.ts), yet it selects. */
const commonWord = async () => {
  const { rows } = await client.query<{ word: string }>(
    "SELECT word FROM ts_stat('SELECT search_vector FROM items') WHERE ndoc BETWEEN (SELECT count(*) / 3 FROM items) AND (SELECT count(*) * 9 / 10 FROM items) ORDER BY ndoc DESC, word LIMIT 1",
  );
  return rows[0].word;
};

/** Searches with `word`: alone, with each filter, a price range, other words; every sort, deep pages. */
const searchesWith = async (word: string): Promise<SearchQuery[]> => {
  const other = vocabulary.titles[0].find((candidate) => candidate !== word) ?? "tee";
  const common = await commonWord();
  const shapes: Partial<SearchQuery>[] = [
    {},
    { minCents: 2000, maxCents: 9000 },
    { brands: vocabulary.brands.slice(0, 2) },
    { sizeKeys: vocabulary.sizes.slice(0, 2), minCents: 1000 },
    { colors: vocabulary.colors.slice(0, 1) },
    { categoryPath: vocabulary.categories[0] },
    { storeSlug: vocabulary.stores[1] },
    { text: `${word} ${other}` },
    { text: `${common} ${word}` },
    { text: `${common} ${word}`, maxCents: 8000 },
  ];
  return shapes.flatMap((shape) =>
    sortOrders.flatMap((sort) =>
      [1, 4].map((page) =>
        query({ text: word, sort, page, ...shape, ...(sort === "price_drop" && { nowMs }) }),
      ),
    ),
  );
};

// price_drop needs the time; nothing here changed a price, so it orders as newest.
const nowMs = Date.now();

const expectSameAnswers = async (searches: SearchQuery[]) => {
  let withHits = 0;
  for (const search of searches) {
    const expected = await reference.search(search);
    expect({ search, ...(await memory.search(search)) }).toEqual({ search, ...expected });
    if (expected.ids.length) withHits++;
  }
  expect(withHits).toBeGreaterThan(searches.length / 2);
};

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  // Over 1,024 items, so frequent words get dense posting lists (postings.ts).
  await seedCatalog(client, { items: 2000, stores: 8, seed: 11 });
  vocabulary = await loadSearchVocabulary(client);
  ({ sync, memory } = await startMemorySearch());
  reference = createPgSearch(db());
}, 120_000);

afterAll(() => Promise.all([sync?.stop(), client?.end()]));

describe("words every item has", () => {
  it("are left out, and the answers stay the reference's", async () => {
    const words = await uniformWords();
    expect(words.length).toBeGreaterThan(0);
    for (const word of words.slice(0, 2)) await expectSameAnswers(await searchesWith(word));
  }, 120_000);

  it("are searched for again once an item has the word with another weight", async () => {
    const [word] = await uniformWords();
    // A listed item, not the newest: relevance must now put it first.
    const [id] = (await reference.search(query({ sort: "price_asc" }))).ids;
    await db().item.update({ where: { id }, data: { title: `${word} quokka ${word}` } });
    const retitled = query({ text: "quokka" });
    await vi.waitFor(async () => expect((await memory.search(retitled)).total).toBe(1), {
      timeout: 2000,
    });
    await sync.settled();
    expect(await uniformWords()).not.toContain(word);
    await expectSameAnswers(await searchesWith(word));
  }, 120_000);
});
