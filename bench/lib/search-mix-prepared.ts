/**
 * The bench search mix made ready for in-process runs (bench/search-profile.ts, bench/search-ab.ts):
 * the catalogue of `items` items, its index built in this process, and each path of the mix as a
 * SearchQuery with its lexemes (asked of PostgreSQL once per text) and its shape (the rows of their
 * reports).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { buildIndex } from "../../server/catalogue/search/memory/catalog-loader";
import { isBroadText } from "../../server/catalogue/search/memory/broad-text";
import type { SearchQuery } from "../../server/catalogue/search/types";
import { ZSearchProductsRequest } from "../../server/catalogue/catalog.schema";
import { searchQueryOf } from "../../server/catalogue/search/query-of-request";
import { catalogWithSearchMix } from "./query-mix";

const queryOf = (path: string): SearchQuery => {
  const params = new URL(path, "http://x").searchParams;
  const input = ZSearchProductsRequest.parse({
    q: params.get("q") ?? undefined,
    category: params.get("category") ?? undefined,
    size: params.getAll("size"),
    color: params.getAll("color"),
    brand: params.getAll("brand"),
    store: params.get("store") ?? undefined,
    min_price: params.get("min_price") ?? undefined,
    max_price: params.get("max_price") ?? undefined,
    sort: params.get("sort") ?? undefined,
    page: params.get("page") ?? undefined,
    per_page: params.get("per_page") ?? undefined,
  });
  return searchQueryOf(input, new Date());
};

/** Builds the index and prepares the mix; `client` stays open for the caller's page-row queries. */
export const preparedSearchMix = async (items: number, log: (line: string) => void) => {
  const { database, mix } = await catalogWithSearchMix(items, log);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const started = performance.now();
  const index = await buildIndex(client);
  log(
    `index built in ${Math.round(performance.now() - started)} ms, ${index.slotCount} slots, ` +
      `typed arrays ${Math.round(index.bytes() / 2 ** 20)} MB, RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`,
  );
  const lexemeCache = new Map<string, string[]>();
  const lexemesOf = async (text: string | undefined) => {
    if (!text || !text.trim()) return [];
    let hit = lexemeCache.get(text);
    if (!hit) {
      const { rows } = await client.query<{ lexemes: string[] }>(
        "SELECT coalesce(array_agg(lexeme ORDER BY lexeme), '{}') AS lexemes FROM unnest(to_tsvector('english', $1))",
        [text],
      );
      hit = rows[0].lexemes;
      lexemeCache.set(text, hit);
    }
    return hit;
  };
  const prepared = [];
  for (const path of mix) {
    const query = queryOf(path);
    const lexemes = await lexemesOf(query.text);
    const filtered =
      query.brands.length + query.sizeKeys.length + query.colors.length > 0 ||
      Boolean(query.storeSlug);
    const priced = query.minCents !== undefined || query.maxCents !== undefined;
    const lists = lexemes.map((lexeme) => index.postings.get(lexeme));
    const shape = !lexemes.length
      ? filtered || priced
        ? "no-q filtered"
        : query.categoryPath
          ? "browse category"
          : "browse all"
      : !filtered && !priced && !query.categoryPath && isBroadText(lists, index.slotCount)
        ? "q broad"
        : filtered || priced || query.categoryPath
          ? "q+filters"
          : "q";
    prepared.push({ path, query, lexemes, shape });
  }

  return { client, index, prepared };
};
