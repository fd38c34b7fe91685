/**
 * A brute-force model of the search semantics (server/catalogue/search/types.ts) over every item loaded
 * into memory, used by tests as an independent oracle. Text matching uses PostgreSQL's own
 * plainto_tsquery to find the matching ids; everything else is plain JavaScript.
 */
import { expect } from "vitest";
import { db } from "../platform/db";
import { ZSearchProductsResponse } from "../catalogue/catalog.schema";
import { storeCanSell } from "../core/store-can-sell";
import type { Facets, FacetName, SearchQuery } from "../catalogue/search/types";
import { dropWindowMs, facetNames, nowOf, saleWindowMs } from "../catalogue/search/types";

export type OracleItem = {
  id: number;
  listed: boolean;
  priceCents: number;
  brand: string | null;
  sizeKeys: string[];
  colors: string[];
  createdAt: number;
  categoryPath: string | null;
  categoryDepth: number | null;
  storeSlug: string;
  /** Its kind-'price' changes, oldest first (by created_at, id). */
  priceChanges: { atMs: number; oldCents: number }[];
};

export const loadOracleItems = async (): Promise<OracleItem[]> => {
  const rows = await db().item.findMany({
    select: {
      id: true,
      status: true,
      priceCents: true,
      brand: true,
      sizeKeys: true,
      colors: true,
      createdAt: true,
      priceChanges: {
        where: { kind: "price" },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { createdAt: true, oldPriceCents: true },
      },
      category: { select: { path: true, depth: true } },
      store: {
        select: {
          slug: true,
          isOpen: true,
          canShip: true,
          canTakePayment: true,
          payoutAccount: true,
          shippingRates: { select: { id: true }, take: 1 },
        },
      },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    listed: row.status === "active" && storeCanSell(row.store),
    priceCents: row.priceCents,
    brand: row.brand,
    sizeKeys: row.sizeKeys,
    colors: row.colors,
    createdAt: row.createdAt.getTime(),
    categoryPath: row.category?.path ?? null,
    categoryDepth: row.category?.depth ?? null,
    storeSlug: row.store.slug,
    priceChanges: row.priceChanges.map((change) => ({
      atMs: change.createdAt.getTime(),
      oldCents: change.oldPriceCents,
    })),
  }));
};

export const textMatches = async (text: string): Promise<Set<number>> => {
  const rows = await db().$queryRaw<
    { id: number }[]
  >`SELECT id FROM items WHERE search_vector @@ plainto_tsquery('english', ${text})`;
  return new Set(rows.map((row) => row.id));
};

const matches = (
  item: OracleItem,
  query: SearchQuery,
  text: Set<number> | undefined,
  skip?: FacetName,
) => {
  if (!item.listed) return false;
  if (text && !text.has(item.id)) return false;
  if (
    query.categoryPath &&
    skip !== "category" &&
    !(
      item.categoryPath === query.categoryPath ||
      item.categoryPath?.startsWith(`${query.categoryPath} > `)
    )
  )
    return false;
  if (
    query.sizeKeys.length &&
    skip !== "size" &&
    !item.sizeKeys.some((key) => query.sizeKeys.includes(key))
  )
    return false;
  if (
    query.colors.length &&
    skip !== "color" &&
    !item.colors.some((color) => query.colors.includes(color))
  )
    return false;
  if (query.brands.length && skip !== "brand" && !(item.brand && query.brands.includes(item.brand)))
    return false;
  if (query.storeSlug && skip !== "store" && item.storeSlug !== query.storeSlug) return false;
  if (query.minCents !== undefined && item.priceCents < query.minCents) return false;
  if (query.maxCents !== undefined && item.priceCents > query.maxCents) return false;
  if (query.onSale && !isOnSale(item, nowOf(query))) return false;
  return true;
};

/** Latest change made in the 30 days before `nowMs`, from a higher price (server/catalogue/search/types.ts). */
const isOnSale = (item: OracleItem, nowMs: number) => {
  const latest = item.priceChanges.at(-1);
  return (
    latest !== undefined && latest.atMs > nowMs - saleWindowMs && latest.oldCents > item.priceCents
  );
};

/** The highest price in effect in the 7 days before `nowMs`: the price now and every old price changed since. */
const weekHigh = (item: OracleItem, nowMs: number) =>
  Math.max(
    item.priceCents,
    ...item.priceChanges
      .filter((change) => change.atMs > nowMs - dropWindowMs)
      .map((change) => change.oldCents),
  );

/** price_drop: dropped items by drop ratio (exact, in BigInt) then id desc, then the others newest. */
const byDrop = (nowMs: number) => (a: OracleItem, b: OracleItem) => {
  const highA = weekHigh(a, nowMs);
  const highB = weekHigh(b, nowMs);
  const isDropA = highA > a.priceCents;
  const isDropB = highB > b.priceCents;
  if (isDropA !== isDropB) return isDropA ? -1 : 1;
  if (!isDropA) return b.createdAt - a.createdAt || b.id - a.id;
  const left = BigInt(highA - a.priceCents) * BigInt(highB);
  const right = BigInt(highB - b.priceCents) * BigInt(highA);
  return left > right ? -1 : left < right ? 1 : b.id - a.id;
};

const facetValues = (item: OracleItem, facet: FacetName): string[] => {
  if (facet === "brand") return item.brand ? [item.brand] : [];
  if (facet === "size") return [...new Set(item.sizeKeys)];
  if (facet === "color") return [...new Set(item.colors)];
  if (facet === "store") return [item.storeSlug];
  if (!item.categoryPath) return [];
  return item.categoryDepth === 0
    ? [item.categoryPath]
    : [item.categoryPath.split(" > ")[0], item.categoryPath];
};

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Expected ids of the page (non-text sorts only), total and facets. */
export const oracleSearch = (items: OracleItem[], query: SearchQuery, text?: Set<number>) => {
  const hits = items.filter((item) => matches(item, query, text));
  const order = {
    price_asc: (a: OracleItem, b: OracleItem) => a.priceCents - b.priceCents || a.id - b.id,
    price_desc: (a: OracleItem, b: OracleItem) => b.priceCents - a.priceCents || b.id - a.id,
    newest: (a: OracleItem, b: OracleItem) => b.createdAt - a.createdAt || b.id - a.id,
    price_drop: query.sort === "price_drop" ? byDrop(nowOf(query)) : () => 0,
  }[query.sort === "relevance" ? "newest" : query.sort];
  hits.sort(order);
  const start = (query.page - 1) * query.perPage;
  const facets = Object.fromEntries(
    facetNames.map((facet) => {
      const counts = new Map<string, number>();
      for (const item of items) {
        if (!matches(item, query, text, facet)) continue;
        for (const value of facetValues(item, facet))
          counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const values = [...counts]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || byCodePoint(a.value, b.value));
      return [facet, values.slice(0, 100)];
    }),
  ) as Facets;
  return {
    ids: hits.slice(start, start + query.perPage).map((item) => item.id),
    total: hits.length,
    facets,
  };
};

/**
 * GET /products has no output schema (ADR 0125): a test holds an answer to the contract here. The
 * parse strips unknown keys, so equality also means the answer sent none.
 */
export const expectSearchContract = (answer: unknown) =>
  expect(ZSearchProductsResponse.parse(answer)).toEqual(answer);
