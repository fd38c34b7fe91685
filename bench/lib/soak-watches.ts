/**
 * The price-watch and price-alert share of the soak. Watchers are people of their own (so the
 * assistant purchases of the mix and the watches' purchases never share an hourly quota), linked
 * with purchase:write and alerts:write. Each step is the next action of a fixed rotation over a
 * pool of directly buyable items kept apart from the ones the mix quotes (a sale there would only
 * turn quotes into price_changed):
 *   set a watch (max_price 90% of the item's price) · a sale (every other cycle: the sandbox price
 *   helper drops that item to 75%, so its watches buy and its alerts email) · list watches · read
 *   one · set an alert (target 80%) · list alerts · cancel the new watch (the other cycles) · the
 *   item's price back.
 * `verifyWatchPurchases` then checks from the database that every purchase a watch made is recorded
 * on exactly one watch, and holds exactly once (never captured) in the processor's ledger.
 */
import pg from "pg";
import type { Buyer } from "./soak-buyers";

type Call = (
  path: string,
  init?: {
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    authorization?: string;
  },
) => Promise<{ status: number; body: string }>;
type Count = (kind: "watch" | "alert" | "sale", status: number) => void;
type PricedItem = { id: number; priceCents: number };

export const watchScopes = [
  "catalog:read",
  "checkout:write",
  "address:read",
  "purchase:write",
  "alerts:write",
];

/** Prices of the watched items, read once: sales are relative to them and restore them. */
export const pricedItems = async (databaseUrl: string, ids: number[]): Promise<PricedItem[]> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number; price_cents: number }>(
      "SELECT id, price_cents FROM items WHERE id = ANY($1::int[]) ORDER BY id",
      [ids],
    );
    return rows.map((row) => ({ id: row.id, priceCents: row.price_cents }));
  } finally {
    await client.end();
  }
};

const money = (cents: number) => (cents / 100).toFixed(2);

export const watchSteps = (options: {
  call: Call;
  count: Count;
  watchers: Buyer[];
  items: PricedItem[];
  partner: () => string;
}) => {
  const { call, count, watchers, items, partner } = options;
  let action = 0;
  let nextWatcher = 0;
  let nextItem = 0;
  let newest: { id: number; watcher: Buyer; item: PricedItem } | null = null;
  let onSale: PricedItem | null = null;

  const as = (watcher: Buyer) => `Bearer ${watcher.token}`;
  const setPrice = async (item: PricedItem, cents: number) =>
    count(
      "sale",
      (
        await call(`/api/v1/sandbox/items/${item.id}/price`, {
          body: JSON.stringify({ price: money(cents) }),
          authorization: partner(),
        })
      ).status,
    );

  // Cycles alternate: in one the new watch's item goes on sale (the watch buys), in the next the new watch is cancelled.
  const isSaleCycle = () => Math.floor(action / 8) % 2 === 0;
  const actions: (() => Promise<void>)[] = [
    async () => {
      const watcher = watchers[nextWatcher++ % watchers.length];
      const item = items[nextItem++ % items.length];
      const body = JSON.stringify({
        catalog_item_id: String(item.id),
        max_price: money(Math.floor(item.priceCents * 0.9)),
        max_total: money(item.priceCents * 2),
        days: 1,
      });
      const answer = await call("/api/v1/price-watches", { body, authorization: as(watcher) });
      count("watch", answer.status);
      newest =
        answer.status === 201
          ? {
              id: (JSON.parse(answer.body) as { price_watch_id: number }).price_watch_id,
              watcher,
              item,
            }
          : null;
    },
    async () => {
      if (!isSaleCycle() || !newest) return;
      onSale = newest.item;
      await setPrice(onSale, Math.floor(onSale.priceCents * 0.75));
    },
    async () =>
      count(
        "watch",
        (
          await call("/api/v1/price-watches?per_page=10", {
            authorization: as(watchers[nextWatcher % watchers.length]),
          })
        ).status,
      ),
    async () => {
      if (newest)
        count(
          "watch",
          (await call(`/api/v1/price-watches/${newest.id}`, { authorization: as(newest.watcher) }))
            .status,
        );
    },
    async () => {
      const watcher = watchers[nextWatcher % watchers.length];
      const item = items[(nextItem + 1) % items.length];
      count(
        "alert",
        (
          await call("/api/v1/price-alerts", {
            body: JSON.stringify({
              catalog_item_id: String(item.id),
              target_price: money(Math.floor(item.priceCents * 0.8)),
            }),
            authorization: as(watcher),
          })
        ).status,
      );
    },
    async () =>
      count(
        "alert",
        (
          await call("/api/v1/price-alerts?per_page=10", {
            authorization: as(watchers[nextWatcher % watchers.length]),
          })
        ).status,
      ),
    async () => {
      if (isSaleCycle() || !newest) return;
      count(
        "watch",
        (
          await call(`/api/v1/price-watches/${newest.id}`, {
            method: "DELETE",
            authorization: as(newest.watcher),
          })
        ).status,
      );
    },
    async () => {
      // The price back, five steps after the sale (seconds at the default rate: the sweep has evaluated by then).
      if (onSale) await setPrice(onSale, onSale.priceCents);
      onSale = null;
    },
  ];

  return () => actions[action++ % actions.length]();
};

/** Every purchase of a watcher came from a watch, is recorded on exactly one watch, and holds once in the ledger. */
export const verifyWatchPurchases = async (databaseUrl: string, watchers: Buyer[]) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const people = watchers.map((watcher) => watcher.personId);
    const { rows: purchases } = await client.query<{ id: string; watches: number }>(
      `SELECT p.id, (SELECT count(*) FROM price_watches w WHERE w.purchase_id = p.id)::int AS watches FROM purchases p WHERE p.person_id = ANY($1::text[])`,
      [people],
    );
    const { rows: states } = await client.query<{ status: string; n: number }>(
      `SELECT status::text, count(*)::int AS n FROM price_watches WHERE person_id = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
      [people],
    );
    const { rows: alerts } = await client.query<{ status: string; n: number }>(
      `SELECT status::text, count(*)::int AS n FROM price_alerts WHERE person_id = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
      [people],
    );
    const { sandboxLedger } = await import("../../server/testing/purchase-ledger");
    const wrong: string[] = [];
    for (const purchase of purchases) {
      const ledger = await sandboxLedger(purchase.id);
      if (purchase.watches !== 1 || ledger.holds !== 1 || ledger.captures !== 0)
        wrong.push(
          `${purchase.id}: ${purchase.watches} watches, ${ledger.holds} holds, ${ledger.captures} captures`,
        );
    }
    return {
      watchPurchases: purchases.length,
      wrong,
      watches: Object.fromEntries(states.map((row) => [row.status, row.n])),
      alerts: Object.fromEntries(alerts.map((row) => [row.status, row.n])),
    };
  } finally {
    await client.end();
  }
};
