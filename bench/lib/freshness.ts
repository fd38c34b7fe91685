/**
 * Freshness: how long after a write commits (through Prisma, the service's own write path) search
 * answers reflect it. An item is marked sold (polling a query whose first hit it was until it is
 * gone), then its price changes (polling a price filter only the new price passes). The item is restored afterwards.
 */
import pg from "pg";
import { storeCanSellSql } from "../../server/core/store-can-sell";

type Probe = { id: number; priceCents: number; slug: string; path: string };

const findProbe = async (databaseUrl: string): Promise<Probe> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The newest listed item of a listed store: first hit of that store's newest page.
    const { rows } = await client.query<{ id: number; price_cents: number; slug: string }>(
      `SELECT i.id, i.price_cents, s.slug FROM stores s
       JOIN LATERAL (SELECT id, price_cents FROM items WHERE store_id = s.id AND status = 'active' ORDER BY created_at DESC, id DESC LIMIT 1) i ON true
       WHERE ${storeCanSellSql("s")} ORDER BY s.id LIMIT 1`,
    );
    return {
      id: rows[0].id,
      priceCents: rows[0].price_cents,
      slug: rows[0].slug,
      path: `/api/v1/products?store=${rows[0].slug}&sort=newest&per_page=1`,
    };
  } finally {
    await client.end();
  }
};

type Page = { data: { id: number }[] };

/** Milliseconds from `write` resolving until `isSeen(page)` holds (polling every 2 ms, at most 10 s). */
const timeUntil = async (options: {
  baseUrl: string;
  path: string;
  authorization: () => string;
  write: () => Promise<unknown>;
  isSeen: (page: Page) => boolean;
}) => {
  await options.write();
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    const response = await fetch(`${options.baseUrl}${options.path}`, {
      headers: { authorization: options.authorization() },
    });
    if (response.ok && options.isSeen((await response.json()) as Page))
      return Math.round((performance.now() - started) * 10) / 10;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return Infinity;
};

/** Five sold/relisted and five price changes on one item; the slowest and median delays in ms. */
export const measureFreshness = async (options: {
  baseUrl: string;
  databaseUrl: string;
  authorization: () => string;
}) => {
  const { db } = await import("../../server/platform/db");
  const probe = await findProbe(options.databaseUrl);
  const common = {
    baseUrl: options.baseUrl,
    path: probe.path,
    authorization: options.authorization,
  };
  const sold: number[] = [];
  const price: number[] = [];
  try {
    for (let round = 0; round < 5; round++) {
      sold.push(
        await timeUntil({
          ...common,
          write: () => db().item.update({ where: { id: probe.id }, data: { status: "sold" } }),
          isSeen: (page) => page.data[0]?.id !== probe.id,
        }),
      );
      await timeUntil({
        ...common,
        write: () => db().item.update({ where: { id: probe.id }, data: { status: "active" } }),
        isSeen: (page) => page.data[0]?.id === probe.id,
      });
      // The page data is read from PostgreSQL; a price filter shows what the search index knows.
      const cents = probe.priceCents + 100 * (round + 1);
      const amount = (cents / 100).toFixed(2);
      const path = `/api/v1/products?store=${probe.slug}&min_price=${amount}&max_price=${amount}&per_page=1`;
      price.push(
        await timeUntil({
          ...common,
          path,
          write: () => db().item.update({ where: { id: probe.id }, data: { priceCents: cents } }),
          isSeen: (page) => page.data[0]?.id === probe.id,
        }),
      );
    }
  } finally {
    await db().item.update({
      where: { id: probe.id },
      data: { status: "active", priceCents: probe.priceCents },
    });
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    itemId: probe.id,
    soldMaxMs: Math.max(...sold),
    soldMedianMs: median(sold),
    priceMaxMs: Math.max(...price),
    priceMedianMs: median(price),
  };
};
