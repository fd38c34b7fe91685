/**
 * The filter-driven scan (filter-driven.ts) answers exactly as the scan of every slot. The oracle:
 * every item also has the word "every" with two weights (so it is not left out as a uniform word),
 * and the same filters searched with q=every take the text path, a scan of every slot; without q
 * they take the driven scan whenever it is estimated cheaper. Hits, total and facets must be equal
 * (orders other than relevance, which q=every changes).
 */
import { describe, expect, it } from "vitest";
import { prng } from "../../../../prisma/seed/prng";
import type { SearchQuery } from "../types";
import { CatalogIndex, type ItemRow } from "./catalog-index";
import { evaluate } from "./evaluate";
import { drivenPlanOf } from "./filter-driven";
import { categoryMembership } from "./filter-tables";

const brands = ["Aritzia", "Roots", "Mackage", "Zara", "Kotn", "Naked & Famous", "Frank And Oak"];
const sizeKeys = ["xs", "s", "m", "l", "xl", "6", "7.5", "30x32", "32x32", "one"];
const colors = ["black", "blue", "brown", "green", "light blue", "red"];
const categories = [
  { id: 1, path: "Women", depth: 0 },
  { id: 2, path: "Women > Coats", depth: 1 },
  { id: 3, path: "Women > Coats > Parkas", depth: 2 },
  { id: 4, path: "Men", depth: 0 },
  { id: 5, path: "Men > Shoes", depth: 1 },
];
const stores = [
  { id: 1, slug: "north", isListed: true },
  { id: 2, slug: "south", isListed: true },
  { id: 3, slug: "east", isListed: true },
  { id: 4, slug: "closed", isListed: false },
];

const buildIndex = (random: () => number, count: number) => {
  const index = new CatalogIndex();
  for (const store of stores) index.upsertStore(store);
  index.setCategories(categories);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const some = <T>(list: T[], share: number) => list.filter(() => random() < share);
  const row = (id: number, isActive: boolean): ItemRow => ({
    id,
    storeId: pick(stores).id,
    categoryId: random() < 0.1 ? null : pick(categories).id,
    brand: random() < 0.1 ? null : pick(brands),
    priceCents: 500 + Math.floor(random() * 50_000),
    isActive,
    sizeKeys: some(sizeKeys, 0.3),
    colors: some(colors, 0.35),
    createdMs: 1_700_000_000_000 + Math.floor(random() * 10_000_000),
    vector: `'every':1${random() < 0.5 ? "A" : "B"} 'item':2`,
  });
  for (let id = 1; id <= count; id++) index.upsertItem(row(id, random() < 0.9));
  index.rebalanceBuckets();
  // Later changes, written in place or to a new slot (the driven scan reads the columns as they are now).
  for (let n = 0; n < count / 10; n++)
    index.upsertItem(row(1 + Math.floor(random() * count), random() < 0.8));
  return index;
};

const randomQuery = (random: () => number): SearchQuery => {
  const some = <T>(list: T[], share: number) => list.filter(() => random() < share);
  const price = random() < 0.4;
  return {
    brands: random() < 0.5 ? some([...brands, "Unknown"], 0.25) : [],
    sizeKeys: random() < 0.4 ? some([...sizeKeys, "xxxl"], 0.2) : [],
    colors: random() < 0.4 ? some([...colors, "mauve"], 0.25) : [],
    // An unknown category lets nothing through and still filters (its facet counts the others).
    categoryPath:
      random() < 0.3
        ? [...categories.map((c) => c.path), "Kids"][Math.floor(random() * 6)]
        : undefined,
    storeSlug:
      random() < 0.2
        ? ["north", "south", "closed", "nowhere"][Math.floor(random() * 4)]
        : undefined,
    minCents: price && random() < 0.7 ? Math.floor(random() * 30_000) : undefined,
    maxCents: price && random() < 0.7 ? 10_000 + Math.floor(random() * 40_000) : undefined,
    sort: (["newest", "price_asc", "price_desc"] as const)[Math.floor(random() * 3)],
    page: 1 + Math.floor(random() * 3),
    perPage: 24,
  };
};

describe("the filter-driven scan", () => {
  it("answers every filtered query as the scan of every slot does", () => {
    const random = prng(2812);
    const index = buildIndex(random, 6000);
    const driven = { one: 0, several: 0 };
    for (let n = 0; n < 600; n++) {
      const query = randomQuery(random);
      const plan = drivenPlanOf(
        index,
        query,
        query.categoryPath ? categoryMembership(index, query.categoryPath) : null,
      );
      if (plan?.estimates.length === 1) driven.one++;
      else if (plan) driven.several++;
      const answer = evaluate(index, query, []);
      const everySlot = evaluate(index, { ...query, text: "every" }, ["every"]);
      expect({ query, answer }).toEqual({ query, answer: everySlot });
    }
    // The driven path was taken, with one filter and with several.
    expect(driven.one).toBeGreaterThan(50);
    expect(driven.several).toBeGreaterThan(50);
  });
});
