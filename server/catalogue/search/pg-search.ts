/**
 * The PostgreSQL reference implementation of CatalogSearch: plain SQL, one statement for the page
 * and total and one per facet. It is the oracle the fast implementation is tested against.
 */
import { type Db, rawPool } from "../../platform/db";
import { storeCanSellSql } from "../../core/store-can-sell";
import { countWatchersInSql } from "./watchers";
import {
  type CatalogSearch,
  type FacetName,
  type Facets,
  type SearchQuery,
  dropWindowMs,
  facetLimit,
  facetNames,
  nowOf,
  saleWindowMs,
} from "./types";

/** A tsquery literal for one lexeme, quoted so punctuation inside it stays part of the lexeme. */
const lexemeQuery = (lexeme: string) => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

/**
 * The lexemes of q as PostgreSQL's English configuration makes them (stemmed, stop words dropped).
 * A prepared statement on the raw pool: every new q of a search asks it, and through Prisma it
 * took about 4% of the server's thread under the search benchmark (docs/performance.md, "Issue
 * 28"). It reads no table, so any connection answers it alike.
 */
export const textLexemes = async (text: string | undefined): Promise<string[]> => {
  if (!text || !text.trim()) return [];
  const { rows } = await rawPool().query<{ lexemes: string[] }>({
    name: "text-lexemes",
    text: "SELECT coalesce(array_agg(lexeme ORDER BY lexeme), '{}') AS lexemes FROM unnest(to_tsvector('english', $1))",
    values: [text],
  });
  return rows[0]?.lexemes ?? [];
};

type Sql = { where: string[]; params: unknown[] };

const addParam = (sql: Sql, value: unknown) => {
  sql.params.push(value);
  return `$${sql.params.length}`;
};

/** WHERE clauses for every filter except `skip` (the facet being counted). */
const filters = (query: SearchQuery, lexemes: string[], skip?: FacetName): Sql => {
  const sql: Sql = { where: ["i.status = 'active'", storeCanSellSql("s")], params: [] };
  if (lexemes.length)
    sql.where.push(
      `i.search_vector @@ ${addParam(sql, lexemes.map(lexemeQuery).join(" & "))}::tsquery`,
    );
  if (query.categoryPath && skip !== "category") {
    sql.where.push(
      `(c.path = ${addParam(sql, query.categoryPath)} OR c.path LIKE ${addParam(sql, `${query.categoryPath.replace(/[\\%_]/g, "\\$&")} > %`)})`,
    );
  }
  if (query.sizeKeys.length && skip !== "size")
    sql.where.push(`i.size_keys && ${addParam(sql, query.sizeKeys)}::text[]`);
  if (query.colors.length && skip !== "color")
    sql.where.push(`i.colors && ${addParam(sql, query.colors)}::text[]`);
  if (query.brands.length && skip !== "brand")
    sql.where.push(`i.brand = ANY(${addParam(sql, query.brands)}::text[])`);
  if (query.storeSlug && skip !== "store")
    sql.where.push(`s.slug = ${addParam(sql, query.storeSlug)}`);
  if (query.minCents !== undefined)
    sql.where.push(`i.price_cents >= ${addParam(sql, query.minCents)}`);
  if (query.maxCents !== undefined)
    sql.where.push(`i.price_cents <= ${addParam(sql, query.maxCents)}`);
  if (query.onSale) {
    const since = addParam(sql, new Date(nowOf(query) - saleWindowMs));
    sql.where.push(
      `EXISTS (SELECT 1 FROM (SELECT e.old_price_cents, e.created_at FROM price_change_events e WHERE e.item_id = i.id AND e.kind = 'price' ORDER BY e.created_at DESC, e.id DESC LIMIT 1) latest
        WHERE latest.created_at > ${since}::timestamptz AND latest.old_price_cents > i.price_cents)`,
    );
  }
  return sql;
};

/**
 * price_drop's key: (high - price) / high, null when the price did not drop in the window. numeric
 * with 30 decimals: two different ratios of int4 prices differ by more than 1e-19, so the order is
 * the exact one the memory index computes with integers.
 */
const dropSql = (query: SearchQuery, sql: Sql) => {
  const since = addParam(sql, new Date(nowOf(query) - dropWindowMs));
  const high = `greatest(i.price_cents, (SELECT max(e.old_price_cents) FROM price_change_events e WHERE e.item_id = i.id AND e.kind = 'price' AND e.created_at > ${since}::timestamptz))`;
  return `nullif((${high} - i.price_cents)::numeric(40,30) / ${high}, 0)`;
};

const from =
  "FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id";

const facetValueSql: Record<FacetName, string> = {
  brand: "i.brand",
  size: "unnest(i.size_keys)",
  color: "unnest(i.colors)",
  store: "s.slug",
  category:
    "unnest(CASE WHEN c.path IS NULL THEN ARRAY[]::text[] WHEN c.depth = 0 THEN ARRAY[c.path] ELSE ARRAY[split_part(c.path, ' > ', 1), c.path] END)",
};

const scoreSql = (sql: Sql, lexemes: string[]) =>
  lexemes
    .map((lexeme) => {
      const p = addParam(sql, lexemeQuery(lexeme));
      return `(CASE WHEN ts_filter(i.search_vector, '{a}') @@ ${p}::tsquery THEN 8 WHEN ts_filter(i.search_vector, '{b}') @@ ${p}::tsquery THEN 4 WHEN ts_filter(i.search_vector, '{c}') @@ ${p}::tsquery THEN 2 ELSE 1 END)`;
    })
    .join(" + ");

const orderSql = (query: SearchQuery, sql: Sql, lexemes: string[]) => {
  if (query.sort === "price_asc") return "i.price_cents ASC, i.id ASC";
  if (query.sort === "price_desc") return "i.price_cents DESC, i.id DESC";
  if (query.sort === "price_drop") {
    const drop = dropSql(query, sql);
    return `${drop} DESC NULLS LAST, CASE WHEN ${drop} IS NULL THEN i.created_at END DESC, i.id DESC`;
  }
  if (query.sort === "relevance" && lexemes.length)
    return `${scoreSql(sql, lexemes)} DESC, i.created_at DESC, i.id DESC`;
  return "i.created_at DESC, i.id DESC";
};

export const createPgSearch = (db: Db): CatalogSearch => ({
  name: "postgres",
  search: async (query) => {
    const lexemes = await textLexemes(query.text);
    const page = filters(query, lexemes);
    const order = orderSql(query, page, lexemes);
    const limit = addParam(page, query.perPage);
    const offset = addParam(page, (query.page - 1) * query.perPage);
    const hitsSql = `SELECT i.id, count(*) OVER () AS total ${from} WHERE ${page.where.join(" AND ")} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
    const [hits, ...facetRows] = await Promise.all([
      db.$queryRawUnsafe<{ id: number; total: bigint }[]>(hitsSql, ...page.params),
      ...facetNames.map((facet) => {
        const sql = filters(query, lexemes, facet);
        const value = facetValueSql[facet];
        return db.$queryRawUnsafe<{ value: string; count: bigint }[]>(
          `SELECT v.value, count(*) AS count FROM (SELECT ${value} AS value ${from} WHERE ${sql.where.join(" AND ")}) v
           WHERE v.value IS NOT NULL GROUP BY v.value ORDER BY count(*) DESC, v.value COLLATE "C" ASC LIMIT ${facetLimit}`,
          ...sql.params,
        );
      }),
    ]);
    let total = hits.length ? Number(hits[0].total) : 0;
    if (!hits.length && query.page > 1) {
      // A page past the end has no row to carry the window count: count on its own.
      const count = filters(query, lexemes);
      const rows = await db.$queryRawUnsafe<{ total: bigint }[]>(
        `SELECT count(*) AS total ${from} WHERE ${count.where.join(" AND ")}`,
        ...count.params,
      );
      total = Number(rows[0].total);
    }
    const facets = Object.fromEntries(
      facetNames.map((facet, index) => [
        facet,
        facetRows[index].map((row) => ({ value: row.value, count: Number(row.count) })),
      ]),
    ) as Facets;
    return { ids: hits.map((row) => row.id), total, facets };
  },
  priceWatchers: (itemIds, viewerId) => countWatchersInSql(db, itemIds, viewerId),
});
