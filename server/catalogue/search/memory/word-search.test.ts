/**
 * One word alone answered from its kept counts (word-search.ts) answers exactly as the scan of its
 * hits. The oracle: the same query with a price floor every item is above (min 0) takes the scan
 * path and changes neither hits, order nor facets. Dense lists (a fifth of the slots or more, made
 * by a bulk build) and sparse ones; the counts made before a run of changes (prices, sales, new
 * text, new items, a store closing and opening) must follow them.
 */
import { describe, expect, it } from "vitest";
import { prng } from "../../../../prisma/seed/prng";
import type { SearchQuery } from "../types";
import { CatalogIndex, type ItemRow } from "./catalog-index";
import { evaluate } from "./evaluate";
import { planOf } from "./query-plan";
import { WordCounts } from "./word-counts";

const words = ["wool", "coat", "silk", "scarf", "linen"];
const stores = [
  { id: 1, slug: "north", isListed: true },
  { id: 2, slug: "south", isListed: true },
  { id: 3, slug: "east", isListed: true },
];
const categories = [
  { id: 1, path: "Women", depth: 0 },
  { id: 2, path: "Women > Coats", depth: 1 },
  { id: 3, path: "Men", depth: 0 },
];

const rowOf = (random: () => number, id: number): ItemRow => {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  // "wool" in about half the items (dense), the others rarer (sparse); weights A-D.
  const shares = [0.5, 0.25, 0.1, 0.08, 0.07];
  const lexemes = words
    .map((word, i) =>
      random() < shares[i] ? `'${word}':${i + 1}${pick(["A", "B", "C", "D"])}` : "",
    )
    .filter(Boolean);
  return {
    id,
    storeId: pick(stores).id,
    categoryId: random() < 0.1 ? null : pick(categories).id,
    brand: random() < 0.1 ? null : pick(["Roots", "Zara", "Kotn", "Aritzia"]),
    priceCents: 500 + Math.floor(random() * 20_000),
    isActive: random() < 0.9,
    sizeKeys: ["s", "m", "l", "30x32"].filter(() => random() < 0.3),
    colors: ["black", "blue", "red"].filter(() => random() < 0.4),
    // Ties on creation time, so the item id decides the order within them.
    createdMs: 1_700_000_000_000 + Math.floor(random() * 400) * 1000,
    vector: [...lexemes, "'item':9"].join(" "),
  };
};

const bulkIndex = (random: () => number, count: number, rows: Map<number, ItemRow>) => {
  const index = new CatalogIndex();
  for (const store of stores) index.upsertStore(store);
  index.setCategories(categories);
  index.reserve({ items: count, maxItemId: count * 2, postings: count * 4 });
  for (let id = 1; id <= count; id++) {
    rows.set(id, rowOf(random, id));
    index.upsertItem(rows.get(id)!);
  }
  index.finishBuild();
  return index;
};

const queriesOf = (random: () => number): SearchQuery[] =>
  words.flatMap((word) =>
    (["relevance", "newest", "price_asc", "price_desc"] as const).map((sort) => ({
      text: word,
      brands: [],
      sizeKeys: [],
      colors: [],
      sort,
      page: 1 + Math.floor(random() * 4),
      perPage: [5, 24, 48][Math.floor(random() * 3)],
    })),
  );

const expectAsTheScan = (index: CatalogIndex, queries: SearchQuery[]) => {
  for (const query of queries) {
    const lexemes = [query.text!];
    expect(planOf(index, query, lexemes).path).toBe("word");
    expect(planOf(index, { ...query, minCents: 0 }, lexemes).path).toBe("scan");
    const answer = evaluate(index, query, lexemes);
    expect({ query, answer }).toEqual({
      query,
      answer: evaluate(index, { ...query, minCents: 0 }, lexemes),
    });
  }
};

describe("one word alone from its kept counts", () => {
  it("answers as the scan of its hits, dense or sparse, and follows every change after the counts are made", () => {
    const random = prng(3005);
    const rows = new Map<number, ItemRow>();
    const index = bulkIndex(random, 3000, rows);
    expect(index.postings.get("wool")!.dense).not.toBeNull();
    expect(index.postings.get("linen")!.dense).toBeNull();
    let nextId = 3001;
    for (let round = 0; round < 12; round++) {
      expectAsTheScan(index, queriesOf(random));
      for (let n = 0; n < 150; n++) {
        const change = random();
        const id = 1 + Math.floor(random() * (nextId - 1));
        const fresh = rowOf(random, id);
        const row = rows.get(id);
        // The same text (written in place), new text (a new slot), a new item, or a deletion.
        if (change < 0.5 && row) rows.set(id, { ...fresh, vector: row.vector });
        else if (change < 0.8) rows.set(id, fresh);
        else if (change < 0.9) rows.set(nextId, rowOf(random, nextId++));
        else {
          rows.delete(id);
          index.removeItem(id);
          continue;
        }
        index.upsertItem(rows.get(id) ?? rows.get(nextId - 1)!);
      }
      // A store closing, then opening again, recounts: the words are counted again when next asked.
      if (round === 3 || round === 7) index.upsertStore({ ...stores[0], isListed: round === 7 });
    }
  });
});

describe("the kept words", () => {
  it("keeps at most its capacity, dropping the least recently asked for", () => {
    const random = prng(7);
    const index = bulkIndex(random, 2000, new Map());
    const kept = new WordCounts(2);
    const [wool, coat, silk] = ["wool", "coat", "silk"].map((word) => index.postings.get(word)!);
    kept.totalsOf(index, wool);
    kept.totalsOf(index, coat);
    kept.totalsOf(index, wool);
    kept.totalsOf(index, silk);
    expect([kept.has(wool), kept.has(coat), kept.has(silk)]).toEqual([true, false, true]);
  });
});
