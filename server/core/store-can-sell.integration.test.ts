/**
 * "A store can sell" (server/core/store-can-sell.ts) is one rule: its in-memory, SQL and Prisma
 * renderings agree on every combination of the five conditions, and a store that stops meeting any
 * one of them is left out alike by search (PostgreSQL and the in-memory index), categories, the
 * store and product pages, quotes, reservations (new checkouts) and payment.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCategory, createItem, createPartner, createStore } from "../../prisma/factories";
import { db } from "../platform/db";
import { storeCanSell, storeCanSellSql, storeCanSellWhere } from "./store-can-sell";
import type { CatalogSync } from "../catalogue/search/memory/catalog-sync";
import { createPgSearch } from "../catalogue/search/pg-search";
import type { CatalogSearch, SearchQuery } from "../catalogue/search/types";
import { partnerCaller } from "../testing/callers";
import { createCheckoutVia, createQuoteVia } from "../testing/checkout-fixtures";
import { startMemorySearch } from "../testing/memory-index";
import { failureOf } from "../testing/oauth";
import { pageCaller } from "../testing/page-caller";

type Store = Awaited<ReturnType<typeof createStore>>;

const dropRates = (store: Store) => db().shippingRate.deleteMany({ where: { storeId: store.id } });

describe("the three renderings of the rule", () => {
  it("agree on all 32 combinations, and only a store meeting all five sells", async () => {
    const combinations = [false, true].flatMap((isOpen) =>
      [false, true].flatMap((canTakePayment) =>
        [false, true].flatMap((isConnected) =>
          [false, true].flatMap((canShip) =>
            [false, true].map((hasRates) => ({
              isOpen,
              canTakePayment,
              isConnected,
              canShip,
              hasRates,
            })),
          ),
        ),
      ),
    );
    const stores = await Promise.all(
      combinations.map(async ({ hasRates, isConnected, ...flags }) => {
        const store = await createStore({
          ...flags,
          payoutAccount: isConnected ? "acct_sandbox_probe" : null,
        });
        if (!hasRates) await dropRates(store);
        return store;
      }),
    );
    const ids = stores.map((store) => store.id);
    const bySql = await db().$queryRawUnsafe<{ id: number }[]>(
      `SELECT s.id FROM stores s WHERE s.id = ANY($1::int[]) AND ${storeCanSellSql("s")}`,
      ids,
    );
    const byWhere = await db().store.findMany({
      where: { id: { in: ids }, ...storeCanSellWhere },
      select: { id: true },
    });
    const loaded = await db().store.findMany({
      where: { id: { in: ids } },
      select: {
        id: true,
        isOpen: true,
        canTakePayment: true,
        payoutAccount: true,
        canShip: true,
        shippingRates: { select: { id: true } },
      },
    });
    const sorted = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);
    expect(sorted(bySql)).toEqual([stores[31].id]);
    expect(sorted(byWhere)).toEqual([stores[31].id]);
    expect(sorted(loaded.filter(storeCanSell))).toEqual([stores[31].id]);
  });

  it("refuses an alias that is not a plain identifier", () => {
    expect(() => storeCanSellSql("s; DROP TABLE stores")).toThrow("not an SQL alias");
  });
});

describe("a store that stops selling is left out everywhere", () => {
  let sync: CatalogSync;
  let memory: CatalogSearch;
  let token: string;
  const reference = () => createPgSearch(db());
  const catalog = partnerCaller(["catalog:read"]);
  const page = pageCaller();

  beforeAll(async () => {
    token = await (await createPartner()).token();
    ({ sync, memory } = await startMemorySearch());
  }, 60_000);

  afterAll(async () => {
    await sync?.stop();
  });

  const searchFor = (word: string): SearchQuery => ({
    text: word,
    sizeKeys: [],
    colors: [],
    brands: [],
    sort: "newest",
    page: 1,
    perPage: 24,
  });
  const categoryCount = async (path: string) => {
    const [root] = (await catalog.catalog.listCategories()).data.filter(
      (node) => node.path === path.split(" > ")[0],
    );
    return root.children.find((node) => node.path === path)?.item_count;
  };

  it.each<[string, (store: Store) => Promise<unknown>]>([
    ["closed", (store) => db().store.update({ where: { id: store.id }, data: { isOpen: false } })],
    [
      "unable to take payment",
      (store) => db().store.update({ where: { id: store.id }, data: { canTakePayment: false } }),
    ],
    [
      "not connected to the processor",
      (store) => db().store.update({ where: { id: store.id }, data: { payoutAccount: null } }),
    ],
    [
      "unable to ship",
      (store) => db().store.update({ where: { id: store.id }, data: { canShip: false } }),
    ],
    ["without shipping rates", dropRates],
  ])(
    "%s",
    async (_case, stopSelling) => {
      const word = `sellprobe${randomBytes(4).toString("hex")}`;
      const categoryPath = `Probes > ${word}`;
      const store = await createStore();
      await createCategory(categoryPath);
      const [paid, reserved, listed] = await Promise.all(
        ["paid", "reserved", "listed"].map((role) =>
          createItem({ storeId: store.id, title: `${word} ${role} parka`, categoryPath }),
        ),
      );
      const quoteToPay = await createQuoteVia(token, [{ item_id: paid.id }]);
      const checkout = JSON.parse(
        (
          await createCheckoutVia(token, {
            quote_id: quoteToPay.body.quote_id,
            email: "buyer@example.ca",
          })
        ).text,
      );
      const quoteToReserve = await createQuoteVia(token, [{ item_id: reserved.id }]);
      // Selling: listed everywhere (the reserved item keeps its place in search and counts).
      await vi.waitFor(async () => expect((await memory.search(searchFor(word))).total).toBe(3), {
        timeout: 2000,
        interval: 20,
      });
      expect((await reference().search(searchFor(word))).total).toBe(3);
      expect(await categoryCount(categoryPath)).toBe(3);
      expect((await catalog.catalog.getStore({ store_slug: store.slug })).open_for_orders).toBe(
        true,
      );

      await stopSelling(store);

      // Search, both implementations (the index hears the change through NOTIFY).
      await vi.waitFor(async () => expect((await memory.search(searchFor(word))).total).toBe(0), {
        timeout: 2000,
        interval: 20,
      });
      expect((await reference().search(searchFor(word))).total).toBe(0);
      expect(
        (await catalog.catalog.searchProducts({ q: word, store: store.slug })).pagination.total,
      ).toBe(0);
      // Categories, the store page and the product page.
      expect(await categoryCount(categoryPath)).toBe(0);
      expect((await catalog.catalog.getStore({ store_slug: store.slug })).open_for_orders).toBe(
        false,
      );
      expect((await failureOf(catalog.catalog.getProduct({ id: listed.id }))).code).toBe(
        "not_found",
      );
      // Quotes.
      const quote = await createQuoteVia(token, [{ item_id: listed.id }]);
      expect(quote.response.status).toBe(409);
      expect(quote.body.error.unavailable_items).toEqual([
        { item_id: listed.id, size: null, quantity: 1, reason: "store_unavailable" },
      ]);
      // Reservations: a quote made while it sold no longer becomes a checkout (its only item is refused).
      const late = await createCheckoutVia(token, {
        quote_id: quoteToReserve.body.quote_id,
        email: "buyer@example.ca",
      });
      expect(late.response.status).toBe(409);
      expect(JSON.parse(late.text).error.code).toBe("nothing_to_buy");
      // Payment: an open checkout is cancelled, nothing charged.
      const payment = await failureOf(
        page.checkoutPage.pay({
          id: checkout.checkout_id,
          accept_terms: true,
          method: {
            type: "card",
            number: "4242 4242 4242 4242",
            exp_month: 12,
            exp_year: 2034,
            cvc: "123",
          },
        }),
      );
      expect(payment.code).toBe("checkout_closed");
      expect(
        await db().checkout.findUniqueOrThrow({
          where: { id: checkout.checkout_id },
          select: { status: true, closedReason: true },
        }),
      ).toEqual({ status: "cancelled", closedReason: "item_unavailable" });
      expect(await db().payment.count({ where: { checkoutId: checkout.checkout_id } })).toBe(0);
    },
    30_000,
  );
});
