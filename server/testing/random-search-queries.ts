/**
 * Seeded random SearchQuery values drawn from a catalogue's own vocabulary, for comparing search
 * implementations: browse, text (narrow to broad, stemmed variants, stop words only, unknown words),
 * text with filters, every sort, near and deep pages, unknown filter values.
 */
import type pg from "pg";
import { isTimeDependent, type SearchQuery, sortOrders } from "../catalogue/search/types";
import { prng } from "../../prisma/seed/prng";

export type SearchVocabulary = {
  words: string[];
  titles: string[][];
  categories: string[];
  sizes: string[];
  colors: string[];
  brands: string[];
  stores: string[];
};

/** Words, category paths and facet values present in the catalogue of `client`'s database. */
export const loadSearchVocabulary = async (
  client: Pick<pg.ClientBase, "query">,
): Promise<SearchVocabulary> => {
  const list = async (sql: string) =>
    (await client.query<{ value: string }>(sql)).rows.map((row) => row.value);
  const texts = await list(
    "SELECT title || ' ' || coalesce(brand, '') || ' ' || description AS value FROM items ORDER BY id LIMIT 400",
  );
  const split = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9'&-]+/)
      .filter((word) => word.length > 1);
  return {
    words: [...new Set(texts.flatMap(split))].sort(),
    titles: texts.map(split),
    categories: await list("SELECT path AS value FROM categories ORDER BY id"),
    sizes: await list("SELECT DISTINCT unnest(size_keys) AS value FROM items ORDER BY 1"),
    colors: await list("SELECT DISTINCT unnest(colors) AS value FROM items ORDER BY 1"),
    brands: await list(
      "SELECT DISTINCT brand AS value FROM items WHERE brand IS NOT NULL ORDER BY 1",
    ),
    stores: await list("SELECT slug AS value FROM stores ORDER BY id"),
  };
};

/**
 * `count` queries; the same seed and vocabulary give the same queries. `onSaleShare` of the
 * filtered ones are on_sale (none by default); price_drop and on_sale queries are asked at `nowMs`
 * (default: now).
 */
export const randomSearchQueries = (
  vocabulary: SearchVocabulary,
  options: { seed: number; count: number; nowMs?: number; onSaleShare?: number },
): SearchQuery[] => {
  const nowMs = options.nowMs ?? Date.now();
  const random = prng(options.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const some = <T>(list: readonly T[], unknown: T, max = 3) =>
    Array.from({ length: 1 + Math.floor(random() * max) }, () =>
      random() < 0.1 ? unknown : pick(list),
    );
  const text = () => {
    const roll = random();
    if (roll < 0.06) return pick(["the", "and the", "of a", "with"]); // stop words only: no text filter
    if (roll < 0.1) return `${pick(vocabulary.words)} zzqxv`; // an unknown word: nothing matches
    // Mostly words of one item (they match together), sometimes words of any items (often nothing).
    const source = random() < 0.8 ? pick(vocabulary.titles) : vocabulary.words;
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(source));
    if (random() < 0.15) words[0] = `${words[0]}s`; // plural: stemmed to the same lexeme, or not
    return random() < 0.1 ? words.join(" ").toUpperCase() : words.join(" ");
  };
  const page = () => {
    const roll = random();
    if (roll < 0.7) return 1;
    if (roll < 0.9) return 2 + Math.floor(random() * 2);
    if (roll < 0.97) return 4 + Math.floor(random() * 40);
    return 2000;
  };
  return Array.from({ length: options.count }, () => {
    const kind = random();
    const hasText = kind >= 0.35;
    const filtered = kind < 0.2 || kind >= 0.75 || random() < 0.2;
    const query: SearchQuery = {
      text: hasText ? text() : undefined,
      sizeKeys: [],
      colors: [],
      brands: [],
      sort: pick(sortOrders),
      page: page(),
      perPage: pick([1, 5, 13, 24, 48]),
    };
    if (!hasText && random() < 0.5)
      query.categoryPath = random() < 0.05 ? "Nowhere" : pick(vocabulary.categories);
    if (filtered) {
      if (random() < 0.4) query.categoryPath = pick(vocabulary.categories);
      if (random() < 0.4) query.sizeKeys = [...new Set(some(vocabulary.sizes, "XXXXL"))];
      if (random() < 0.4) query.colors = [...new Set(some(vocabulary.colors, "teal"))];
      if (random() < 0.3) query.brands = [...new Set(some(vocabulary.brands, "No Such Brand"))];
      if (random() < 0.2)
        query.storeSlug = random() < 0.1 ? "no-such-store" : pick(vocabulary.stores);
      if (random() < 0.3) query.minCents = Math.floor(random() * 10_000);
      if (random() < 0.3) query.maxCents = (query.minCents ?? 0) + Math.floor(random() * 50_000);
      if (options.onSaleShare && random() < options.onSaleShare) query.onSale = true;
    }
    if (isTimeDependent(query)) query.nowMs = nowMs;
    return query;
  });
};

/** A SearchQuery with no filters, by relevance, page 1 of 24, with `overrides`. */
export const searchQuery = (overrides: Partial<SearchQuery>): SearchQuery => ({
  sizeKeys: [],
  colors: [],
  brands: [],
  sort: "relevance",
  page: 1,
  perPage: 24,
  ...overrides,
});
