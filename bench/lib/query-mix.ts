/**
 * The fixed, seeded search mix (PERFORMANCE.md section 4): 40% browse and category pages, 40% free
 * text from narrow (three words of one title) to broad (one word), 20% text with filters; the four
 * sorts alike; pages 1 to 3, and 1% deep pages (100 to 2000); 24 or 48 per page. Words and filter
 * values come from the catalogue itself.
 */
import pg from "pg";
import {
  loadSearchVocabulary,
  type SearchVocabulary,
} from "../../server/testing/random-search-queries";
import { ensureCatalogDatabase } from "./database";
import { prng } from "../../prisma/seed/prng";

export type MixEntry = { kind: "browse" | "text" | "text+filters"; path: string };

/** `count` request paths under /api/v1/products. */
export const searchMix = (
  vocabulary: SearchVocabulary,
  options: { seed: number; count: number },
): MixEntry[] => {
  const random = prng(options.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const words = (most: number) => {
    const title = pick(vocabulary.titles);
    const count = 1 + Math.floor(random() * most);
    return [...new Set(Array.from({ length: count }, () => pick(title)))].join(" ");
  };
  return Array.from({ length: options.count }, () => {
    const params = new URLSearchParams();
    const roll = random();
    const kind = roll < 0.4 ? "browse" : roll < 0.8 ? "text" : "text+filters";
    if (kind === "browse" && random() < 0.6) params.set("category", pick(vocabulary.categories));
    if (kind === "text") params.set("q", words(3));
    if (kind === "text+filters") {
      params.set("q", words(2));
      const filters = ["size", "color", "brand", "price"].filter(() => random() < 0.45);
      if (!filters.length) filters.push(pick(["size", "color", "brand", "price"]));
      for (const filter of filters) {
        if (filter === "size")
          for (let n = 1 + Math.floor(random() * 2); n > 0; n--)
            params.append("size", pick(vocabulary.sizes));
        if (filter === "color") params.append("color", pick(vocabulary.colors));
        if (filter === "brand")
          for (let n = 1 + Math.floor(random() * 2); n > 0; n--)
            params.append("brand", pick(vocabulary.brands));
        if (filter === "price") {
          const min = Math.floor(random() * 60);
          params.set("min_price", String(min));
          params.set("max_price", String(min + 20 + Math.floor(random() * 300)));
        }
      }
    }
    params.set("sort", pick(["relevance", "newest", "price_asc", "price_desc"]));
    const deep = random() < 0.01;
    params.set(
      "page",
      String(deep ? 100 + Math.floor(random() * 1901) : pick([1, 1, 1, 1, 1, 2, 2, 3])),
    );
    params.set("per_page", String(pick([24, 48])));
    return { kind, path: `/api/v1/products?${params}` };
  });
};

/** The catalogue database for `items` (loaded on first use) and the benchmarks' fixed mix of 5,000 search paths over it. */
export const catalogWithSearchMix = async (items: number, log: (line: string) => void) => {
  const database = await ensureCatalogDatabase(items, log);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const vocabulary = await loadSearchVocabulary(client);
  await client.end();
  return {
    database,
    mix: searchMix(vocabulary, { seed: 20261122, count: 5000 }).map((entry) => entry.path),
  };
};
