/**
 * GET /products semantics against a generated catalogue, checked item by item against a
 * brute-force oracle: every filter alone and combined, disjunctive facet counts, category subtrees,
 * size normalisation, sort orders, pagination, store eligibility and sold items.
 */
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createItem, createStore } from "../../prisma/factories";
import { seedCatalog } from "../../prisma/seed/catalog";
import { db } from "../platform/db";
import { normalizeSize } from "../core/sizes";
import type { SearchQuery } from "./search/types";
import { partnerCaller } from "../testing/callers";
import {
  expectSearchContract,
  type OracleItem,
  loadOracleItems,
  oracleSearch,
  textMatches,
} from "../testing/catalog-oracle";
import type { TSearchProductsRequest } from "./catalog.schema";

let items: OracleItem[];
const caller = partnerCaller();

const toQuery = (input: TSearchProductsRequest): SearchQuery => ({
  text: input.q ?? undefined,
  categoryPath: input.category ?? undefined,
  sizeKeys: [...new Set((input.size ?? []).map(normalizeSize))],
  colors: (input.color ?? []).map((color) => color.toLowerCase()),
  brands: input.brand ?? [],
  storeSlug: input.store ?? undefined,
  minCents:
    input.min_price === undefined || input.min_price === null
      ? undefined
      : Math.round(Number(input.min_price) * 100),
  maxCents:
    input.max_price === undefined || input.max_price === null
      ? undefined
      : Math.round(Number(input.max_price) * 100),
  sort: input.sort ?? "relevance",
  page: Number(input.page ?? 1),
  perPage: Number(input.per_page ?? 24),
});

const expectSameAsOracle = async (input: TSearchProductsRequest) => {
  const result = await caller.catalog.searchProducts(input);
  expectSearchContract(result);
  const text = input.q ? await textMatches(input.q) : undefined;
  const expected = oracleSearch(items, toQuery(input), text);
  expect(result.pagination.total).toBe(expected.total);
  if (!input.q || input.sort !== "relevance")
    expect(result.data.map((item) => item.id)).toEqual(expected.ids);
  expect(result.facets).toEqual(expected.facets);
  return result;
};

beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await seedCatalog(client, { items: 3000, stores: 10, seed: 7 });
  await client.end();
  items = await loadOracleItems();
}, 120_000);

describe("GET /products against the oracle", () => {
  const brands = () => [
    ...new Set(items.filter((item) => item.listed && item.brand).map((item) => item.brand!)),
  ];

  it.each<[string, TSearchProductsRequest]>([
    ["browse, default sort", {}],
    ["newest, page 3", { sort: "newest", page: 3, per_page: 48 }],
    ["price ascending", { sort: "price_asc" }],
    ["price descending", { sort: "price_desc", per_page: 10 }],
    ["top-level category subtree", { category: "Women" }],
    ["middle category subtree", { category: "Men > Outerwear" }],
    ["leaf category", { category: "Women > Shoes > Boots" }],
    ["one size", { size: ["M"] }],
    ["several sizes, any of", { size: ["S", "L", "8"] }],
    ["waist by length", { size: ["28x32"] }],
    ["colour", { color: ["Black"] }],
    ["colours, any of", { color: ["navy", "red"] }],
    ["price range", { min_price: "20", max_price: "80.50" }],
    ["minimum only", { min_price: 500 }],
    ["maximum only", { max_price: "15" }],
    ["store", { store: "maple-and-thread" }],
    ["unknown store is an empty page", { store: "no-such-store" }],
    [
      "combined filters",
      {
        category: "Women",
        size: ["M", "S"],
        color: ["black", "white"],
        max_price: "200",
        sort: "price_asc",
      },
    ],
    ["text", { q: "jackets" }],
    ["text with filters, newest", { q: "wool coat", size: ["L"], sort: "newest" }],
    ["text in description only words", { q: "colour black", sort: "price_desc" }],
    ["page past the end", { page: 2000, per_page: 48 }],
  ])("%s", async (_name, input) => {
    await expectSameAsOracle(input);
  });

  it("brand filter keeps the other brands in its facet (disjunctive)", async () => {
    const [first, second] = brands();
    const one = await expectSameAsOracle({ brand: [first] });
    expect(one.facets.brand.map((value) => value.value)).toContain(second);
    const both = await expectSameAsOracle({ brand: [first, second] });
    const countOf = (brand: string) =>
      one.facets.brand.find((value) => value.value === brand)!.count;
    expect(both.pagination.total).toBe(countOf(first) + countOf(second));
  });

  it("size MD is found by size=M, and items keep their sizes as listed", async () => {
    const store = await createStore();
    const item = await createItem({ storeId: store.id, sizes: ["MD"], title: "Listed as MD" });
    items = await loadOracleItems();
    const result = await expectSameAsOracle({ size: ["M"], store: store.slug });
    expect(result.data.map((hit) => hit.id)).toEqual([item.id]);
    expect(result.data[0].sizes).toEqual(["MD"]);
    expect(result.facets.size).toEqual([{ value: "M", count: 1 }]);
  });

  it("never lists items of closed, non-shipping or non-paying stores, nor sold items", async () => {
    const closed = await createStore({ isOpen: false });
    const noShip = await createStore({ canShip: false });
    const noPay = await createStore({ canTakePayment: false });
    const open = await createStore();
    for (const store of [closed, noShip, noPay, open])
      await createItem({ storeId: store.id, title: "Eligibility probe parka" });
    const sold = await createItem({
      storeId: open.id,
      title: "Eligibility probe parka sold",
      status: "sold",
    });
    const result = await caller.catalog.searchProducts({ q: "eligibility probe" });
    expect(result.data.map((hit) => hit.store.slug)).toEqual([open.slug]);
    expect(result.data.map((hit) => hit.id)).not.toContain(sold.id);
    await db().item.updateMany({ where: { storeId: open.id }, data: { status: "sold" } });
    expect((await caller.catalog.searchProducts({ q: "eligibility probe" })).pagination.total).toBe(
      0,
    );
  });

  it("ranks by the words in q: title before description, stemmed", async () => {
    const store = await createStore();
    const inDescription = await createItem({
      storeId: store.id,
      title: "Plain top",
      createdAt: new Date("2026-11-01"),
    });
    await db().item.update({
      where: { id: inDescription.id },
      data: { description: "Pairs well with any zebrastripe jacket" },
    });
    const inTitle = await createItem({
      storeId: store.id,
      title: "Zebrastripe Jackets",
      createdAt: new Date("2020-01-01"),
    });
    const result = await caller.catalog.searchProducts({
      q: "zebrastripe jacket",
      store: store.slug,
    });
    expect(result.data.map((hit) => hit.id)).toEqual([inTitle.id, inDescription.id]);
    const newest = await caller.catalog.searchProducts({
      q: "zebrastripe jacket",
      store: store.slug,
      sort: "newest",
    });
    expect(newest.data.map((hit) => hit.id)).toEqual([inDescription.id, inTitle.id]);
  });

  it("pagination totals and last_page", async () => {
    items = await loadOracleItems();
    const result = await caller.catalog.searchProducts({ per_page: 7 });
    const listed = items.filter((item) => item.listed).length;
    expect(result.pagination).toEqual({
      page: 1,
      per_page: 7,
      total: listed,
      last_page: Math.ceil(listed / 7),
    });
  });

  it("serialises ProductSummary exactly as typed", async () => {
    const [hit] = (await caller.catalog.searchProducts({ per_page: 1 })).data;
    expect(Object.keys(hit).sort()).toEqual(
      [
        "available",
        "brand",
        "category",
        "condition",
        "cover_image",
        "id",
        "previous_price",
        "price",
        "price_watchers",
        "sizes",
        "store",
        "title",
        "url",
        "you_are_watching",
      ].sort(),
    );
    expect(hit.price.amount).toMatch(/^\d+\.\d{2}$/);
    expect(hit.price.currency).toBe("CAD");
    expect(hit.price_watchers).toBe(0);
    expect(hit.you_are_watching).toBe(false);
    expect(Object.keys(hit.store).sort()).toEqual(["agent_checkout", "name", "slug", "url"]);
  });

  it("facet values are capped at 100 and ordered most common first", async () => {
    const result = await caller.catalog.searchProducts({});
    for (const values of Object.values(result.facets)) {
      expect(values.length).toBeLessThanOrEqual(100);
      for (let i = 1; i < values.length; i++)
        expect(values[i - 1].count).toBeGreaterThanOrEqual(values[i].count);
    }
    expect(result.facets.category.map((value) => value.value)).toEqual(
      expect.arrayContaining(["Women", "Men"]),
    );
    expect(result.facets.category.some((value) => value.value.split(" > ").length === 3)).toBe(
      true,
    );
  });
});
