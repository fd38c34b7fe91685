/**
 * The matcher's index, pure: a watch is filed under its most selective required key, an item finds
 * it through its own keys, and the full check is search's predicate (category path and below,
 * normalised sizes, lower-cased colours, every lexeme of q, inclusive prices, only items that can
 * be sold now). Checked against a brute-force pass of the predicate over every watch.
 */
import { describe, expect, it } from "vitest";
import { itemMatchesFilter, type ItemMatchFacts } from "../catalogue";
import { filterOfStored, WatchIndex } from "./matcher";
import { indexKeysOf, sizeToBuy } from "./policy";
import type { StoredFilters } from "./store";

const item = (overrides: Partial<ItemMatchFacts> = {}): ItemMatchFacts => ({
  id: 1,
  priceCents: 8_900,
  brand: "Atelier Nord",
  categoryPath: "Women > Outerwear > Coats",
  sizeKeys: ["M", "L"],
  colors: ["navy"],
  storeSlug: "maison-lumiere",
  lexemes: ["coat", "wool", "long"],
  canSellNow: true,
  ...overrides,
});

const filters = (overrides: Partial<StoredFilters>): StoredFilters => ({
  size: [],
  color: [],
  brand: [],
  ...overrides,
});

const watch = (id: string, stored: StoredFilters, lexemes: string[] = []) => ({
  id,
  mode: "notify" as const,
  status: "active",
  expiresAt: new Date(Date.now() + 86_400_000),
  maxTotalCents: null,
  filters: stored,
  lexemes,
});

describe("the search-watch index", () => {
  it("files a watch under its most selective key, paired with a colour, a size or a category it also requires", () => {
    expect(indexKeysOf(filterOfStored(filters({ store: "s1", brand: ["B"] }), []))).toEqual([
      "s:s1",
    ]);
    expect(indexKeysOf(filterOfStored(filters({ brand: ["A", "B"] }), ["coat"]))).toEqual([
      "b:A",
      "b:B",
    ]);
    expect(indexKeysOf(filterOfStored(filters({ q: "wool coat" }), ["coat", "wool"]))).toEqual([
      "w:coat",
    ]);
    expect(indexKeysOf(filterOfStored(filters({ size: ["MD"] }), []))).toEqual(["z:M"]);
    // A colour before a size and before a top-level category; a deeper category before a colour.
    expect(indexKeysOf(filterOfStored(filters({ size: ["MD"], color: ["navy"] }), []))).toEqual([
      "k:navy|z:M",
    ]);
    expect(
      indexKeysOf(filterOfStored(filters({ category: "Women", color: ["navy"] }), [])),
    ).toEqual(["k:navy|c:Women"]);
    expect(
      indexKeysOf(filterOfStored(filters({ category: "Women > Outerwear", color: ["navy"] }), [])),
    ).toEqual(["c:Women > Outerwear|k:navy"]);
    expect(
      indexKeysOf(filterOfStored(filters({ brand: ["A", "B"], color: ["navy", "black"] }), [])),
    ).toEqual(["b:A|k:navy", "b:A|k:black", "b:B|k:navy", "b:B|k:black"]);
    // More pairs than the cap: the first key alone.
    const sizes = ["XS", "SM", "MD", "LG", "XL"];
    expect(
      indexKeysOf(filterOfStored(filters({ brand: ["A", "B", "C", "D"], size: sizes }), [])),
    ).toEqual(["b:A", "b:B", "b:C", "b:D"]);
    expect(indexKeysOf(filterOfStored(filters({ category: "Women" }), []))).toEqual(["c:Women"]);
    expect(indexKeysOf(filterOfStored(filters({ max_price: "50" }), []))).toEqual(["*"]);
  });

  it("finds exactly the watches search's predicate says, whatever key each is filed under", () => {
    const index = new WatchIndex();
    const cases: [string, StoredFilters, string[], boolean][] = [
      ["category-parent", filters({ category: "Women > Outerwear" }), [], true],
      ["category-prefix-only", filters({ category: "Women > Outer" }), [], false],
      ["size-spelling", filters({ size: ["Medium"] }), [], true],
      ["size-other", filters({ size: ["XS"] }), [], false],
      ["colour-case", filters({ color: ["Navy"] }), [], true],
      ["words-all", filters({ q: "long wool coats" }), ["coat", "long", "wool"], true],
      ["words-one-missing", filters({ q: "wool parka" }), ["parka", "wool"], false],
      ["price-inclusive", filters({ min_price: "89", max_price: "89.00" }), [], true],
      ["price-over", filters({ max_price: "88.99" }), [], false],
      ["store-other", filters({ store: "other", brand: ["Atelier Nord"] }), [], false],
      ["brand-any", filters({ brand: ["X", "Atelier Nord"], color: ["navy"] }), [], true],
      ["stop-words-only", filters({ q: "the", max_price: "100" }), [], true],
    ];
    for (const [id, stored, lexemes] of cases) index.put(watch(id, stored, lexemes));
    const found = index
      .match(item(), new Date())
      .map((entry) => entry.id)
      .sort();
    const expected = cases.filter(([, , , matches]) => matches).map(([id]) => id);
    expect(found).toEqual(expected.sort());
    const bruteForce = cases
      .filter(([, stored, lexemes]) => itemMatchesFilter(filterOfStored(stored, lexemes), item()))
      .map(([id]) => id);
    expect(found).toEqual(bruteForce.sort());
    // An item that cannot be sold now matches nothing; a cancelled watch leaves the index.
    expect(index.match(item({ canSellNow: false }), new Date())).toEqual([]);
    index.put({ ...watch("brand-any", filters({}), []), status: "cancelled" });
    expect(index.match(item(), new Date()).map((entry) => entry.id)).not.toContain("brand-any");
    expect(index.size).toBe(cases.length - 1);
  });

  it("proposes exactly what a pass of search's predicate over every watch finds, for random watches and items", () => {
    // A small vocabulary, so that keys and pairs collide often.
    let seed = 7;
    const next = (n: number) => (((seed = (seed * 48_271) % 2_147_483_647) % n) + n) % n;
    const some = <T>(values: readonly T[], most: number) => [
      ...new Set(Array.from({ length: next(most + 1) }, () => values[next(values.length)])),
    ];
    const brands = ["A", "B", "C"];
    const colours = ["navy", "black", "red"];
    const sizes = ["S", "M", "L"];
    const paths = ["Women", "Women > Coats", "Women > Coats > Long", "Men", "Men > Shoes"];
    const words = ["coat", "wool", "long", "boot"];
    const stores = ["s1", "s2"];
    const index = new WatchIndex();
    const watches = Array.from({ length: 400 }, (_, n) => {
      const stored = filters({
        brand: some(brands, 2),
        color: some(colours, 2),
        size: some(sizes, 2),
        ...(next(3) === 0 ? { category: paths[next(paths.length)] } : {}),
        ...(next(5) === 0 ? { store: stores[next(stores.length)] } : {}),
        ...(next(4) === 0 ? { max_price: String(20 + next(80)) } : {}),
      });
      const lexemes = some(words, 2);
      index.put(watch(`w${n}`, stored, lexemes));
      return { id: `w${n}`, filter: filterOfStored(stored, lexemes) };
    });
    for (let n = 0; n < 200; n++) {
      const probe = item({
        brand: next(4) === 0 ? null : brands[next(brands.length)],
        colors: some(colours, 2),
        sizeKeys: some(sizes, 3),
        categoryPath: next(6) === 0 ? null : paths[next(paths.length)],
        storeSlug: stores[next(stores.length)],
        lexemes: some(words, 3),
        priceCents: 2_000 + next(8_000),
      });
      const found = index
        .match(probe, new Date())
        .map((entry) => entry.id)
        .sort();
      const expected = watches
        .filter((entry) => itemMatchesFilter(entry.filter, probe))
        .map((entry) => entry.id)
        .sort();
      expect(found).toEqual(expected);
    }
  });

  it("a watch filed under two of an item's keys is found once, in every call", () => {
    const index = new WatchIndex();
    index.put(watch("two-colours", filters({ color: ["navy", "black"] })));
    index.put(watch("one-colour", filters({ color: ["black"] })));
    const twoColours = item({ colors: ["navy", "black"] });
    for (let call = 0; call < 3; call++)
      expect(
        index
          .match(twoColours, new Date())
          .map((entry) => entry.id)
          .sort(),
      ).toEqual(["one-colour", "two-colours"]);
    // An expired watch is not proposed (the database has the last word, but the index skips it).
    index.put({ ...watch("expired", filters({ color: ["navy"] })), expiresAt: new Date(0) });
    expect(index.match(twoColours, new Date()).map((entry) => entry.id)).not.toContain("expired");
  });

  it("a buying watch buys the size its filter names, else the item's only size, else a saved size", () => {
    const variants = [
      { size: "Small", sizeKey: "S", quantity: 0 },
      { size: "Med", sizeKey: "M", quantity: 1 },
      { size: "L", sizeKey: "L", quantity: 1 },
    ];
    expect(sizeToBuy(variants, { filterSizeKeys: ["M"], savedSizeKeys: [] })).toEqual({
      size: "Med",
    });
    expect(sizeToBuy(variants, { filterSizeKeys: ["S"], savedSizeKeys: [] })).toBeNull();
    expect(sizeToBuy(variants, { filterSizeKeys: [], savedSizeKeys: ["L"] })).toEqual({
      size: "L",
    });
    expect(sizeToBuy(variants, { filterSizeKeys: [], savedSizeKeys: [] })).toBeNull();
    expect(
      sizeToBuy([{ size: null, sizeKey: null, quantity: 1 }], {
        filterSizeKeys: [],
        savedSizeKeys: [],
      }),
    ).toEqual({ size: undefined });
  });
});
