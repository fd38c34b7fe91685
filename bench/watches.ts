/**
 * `npm run bench -- watches [--items 20000] [--seconds 20]`: price watches under a store-wide sale.
 * On its own catalogue database (shopping_bench_watches_<size>), 4,000 linked persons with a
 * saved sandbox card (one in ten declines), address and limits hold 100,000 live watches and
 * alerts (25 each on 25 items, five per item over 20,000 items: 20 price watches and 5 price
 * alerts a person; of an item's five, three would buy or alert at 80% of the price, two at 50%).
 * The service runs as `npm start` (its sweep is the only evaluator, as without Inngest), with a
 * pool of 20 connections a thread (`BENCH_POOL=8` tries another size; `BENCH_SEARCH_WATCHES=0` runs
 * the sale without search watches, to tell their part from the price watches').
 * Measured:
 * - the search mix p95 (open loop at a fixed rate) with no watch, then with the 100,000 live;
 * - a sale that drops 5,000 items to 70% in one price-change transaction: the time until every
 *   qualifying watch (on a dropped item, max_price at or above the new price) has bought, needs
 *   the person (declined) or ended (item sold to other watchers: the stock of the size), that every
 *   purchase is recorded on its watch (one per watch) and no size was bought beyond its stock;
 *   every alert on a dropped item at or over the new price has emailed exactly once, none bought.
 * Search watches (issue 29 §3, bench/lib/search-watches.ts): 50,000 live search watches over the
 * 20,000 items (2.5 an item; one in twenty buys), the search mix p95 with them live too, then a
 * batch of 2,000 new listings (one a ten items) arrives with the sale: the time until every
 * matching search watch has notified or bought (every event handled, none executing), one
 * purchase per buying watch, and every (watch, item) named in at most one email.
 * Any-of groups (issue 29 §4, bench/lib/watch-groups.ts): 1,000 persons hold a group of three
 * alternatives among the sale's items, so the sale drops all three at once: the time until every
 * group has ended, and that none bought twice.
 */
import pg from "pg";
import { loadSearchVocabulary } from "../server/testing/random-search-queries";
import { ensureCatalogDatabase } from "./lib/database";
import { runOpenLoop } from "./lib/open-loop";
import { storeCanSellSql } from "../server/core/store-can-sell";
import { machine, postgresSettings } from "./lib/machine";
import { createPartners, tokenRotation } from "./lib/partners";
import { searchMix } from "./lib/query-mix";
import { printTable, ratio, writeResult } from "./lib/report";
import { startService } from "./lib/service";
import {
  createSearchWatches,
  pickNewListings,
  searchWatchesOpen,
  searchWatchFigures,
  searchWatchTables,
} from "./lib/search-watches";
import {
  createWatchGroups,
  watchGroupFigures,
  watchGroupsOpen,
  watchGroupTables,
} from "./lib/watch-groups";

const persons = 4_000;
const watchesPerPerson = 20;
const alertsPerPerson = 5;
const saleItems = 5_000;
const searchRate = 40;
const groupCount = 1_000;

/** The tables a run fills, emptied by the next. */
const benchTables = [
  "price_watches",
  "price_alerts",
  "price_change_events",
  "payments",
  "orders",
  "purchases",
  "checkout_lines",
  "checkouts",
  "quotes",
  "idempotency_records",
  "email_messages",
  "sandbox_payments",
  "sandbox_processor_requests",
  ...searchWatchTables,
  ...watchGroupTables,
  "persons",
  "api_clients",
];

/** Original prices and stock, kept once, so every run starts from the same catalogue. */
const resetCatalog = async (client: pg.Client) => {
  await client.query(
    `CREATE TABLE IF NOT EXISTS bench_watch_originals AS SELECT i.id AS item_id, i.price_cents, i.status FROM items i`,
  );
  await client.query(
    `CREATE TABLE IF NOT EXISTS bench_watch_variants AS SELECT v.id AS variant_id, v.quantity FROM variants v`,
  );
  await client.query(
    `UPDATE items i SET price_cents = o.price_cents, status = o.status FROM bench_watch_originals o WHERE o.item_id = i.id AND (i.price_cents <> o.price_cents OR i.status <> o.status)`,
  );
  await client.query(
    `UPDATE variants v SET quantity = o.quantity FROM bench_watch_variants o WHERE o.variant_id = v.id AND v.quantity <> o.quantity`,
  );
  // Truncated, not deleted from: a table vacuumed with every row deleted keeps its pages with no
  // rows counted, so the planner takes it for empty however many rows a sale then adds, and chose
  // plans that scan a whole index once a watch (the digest's probe by the primary key, whose watch
  // column is second: minutes a run, and a sale still unsettled after five minutes). A truncated
  // table is estimated from its size as it grows, as a new database's is. CASCADE: the rows that
  // hang off these (evaluations, ledger entries, refunds, disputes) are the run's too.
  await client.query(`TRUNCATE ${benchTables.slice(0, -2).join(", ")} CASCADE`);
  // The listings of earlier runs (the catalogue's own items are the originals).
  await client.query(
    `DELETE FROM items WHERE id NOT IN (SELECT item_id FROM bench_watch_originals)`,
  );
  await client.query(`DELETE FROM persons WHERE email LIKE 'bench-watcher-%'`);
  await client.query(`DELETE FROM api_clients WHERE name = 'Bench Watch Assistant'`);
  await client.query(`UPDATE stores SET agent_checkout = 'direct'`);
  // Every run rewrites these tables (persons and clients by delete, the catalogue by update):
  // without a vacuum their indexes grow run after run (560,000 entries for 80,000 watches after a
  // few) and the statistics go stale, so a run's figures would depend on how many ran before it.
  await client.query(`VACUUM ANALYZE ${benchTables.join(", ")}, items, variants`);
};

/** 4,000 persons linked to one assistant (grant with purchase:write), each with address, limits and a saved card. */
const createWatchers = async (client: pg.Client) => {
  await client.query(
    `INSERT INTO api_clients (id, name, kind, scopes, linking_enabled, purchases_enabled) VALUES ('cli_benchwatch', 'Bench Watch Assistant', 'agent', ARRAY['catalog:read','checkout:write','purchase:write'], true, true)`,
  );
  await client.query(
    `
    INSERT INTO persons (id, email, email_verified_at, spending_limit_per_order_cents, spending_limit_per_30_days_cents)
    SELECT 'per_bench' || n, 'bench-watcher-' || n || '@example.ca', now(), 5000000, 5000000 FROM generate_series(1, $1) n`,
    [persons],
  );
  await client.query(
    `
    INSERT INTO shipping_addresses (person_id, name, line1, city, province, postal_code, country)
    SELECT 'per_bench' || n, 'Bench Watcher', '100 Queen St W', 'Toronto', 'ON', 'M5H 2N2', 'CA' FROM generate_series(1, $1) n`,
    [persons],
  );
  await client.query(
    `
    INSERT INTO sandbox_payment_methods (id, customer_id, card_number, card_last4)
    SELECT 'sbpm_bench' || n, 'sbcus_bench' || n, CASE WHEN n % 10 = 0 THEN '4000000000000002' ELSE '4242424242424242' END, CASE WHEN n % 10 = 0 THEN '0002' ELSE '4242' END
    FROM generate_series(1, $1) n ON CONFLICT (id) DO NOTHING`,
    [persons],
  );
  await client.query(
    `
    INSERT INTO saved_cards (person_id, processor_customer_id, payment_method_id, brand, last4, exp_month, exp_year)
    SELECT 'per_bench' || n, 'sbcus_bench' || n, 'sbpm_bench' || n, 'visa', CASE WHEN n % 10 = 0 THEN '0002' ELSE '4242' END, 12, 2031 FROM generate_series(1, $1) n`,
    [persons],
  );
  await client.query(
    `
    INSERT INTO oauth_grants (id, client_id, person_id, scopes, audience, consent_nonce, expires_at)
    SELECT 'grt_bench' || n, 'cli_benchwatch', 'per_bench' || n, ARRAY['catalog:read','checkout:write','purchase:write'], 'api', 'bench-nonce-' || n, now() + interval '30 days'
    FROM generate_series(1, $1) n`,
    [persons],
  );
};

/**
 * 25 watches and alerts per person on 25 consecutive sellable items (five per item: persons p,
 * p+800, p+1600...); slots 0-19 are price watches, 20-24 price alerts; of an item's five, three
 * buy or alert at 80% of the price and two at 50%. The live count of each.
 */
const createWatchesAndAlerts = async (client: pg.Client, items: number) => {
  const slots = `
    WITH sellable AS (
      SELECT i.id, i.price_cents, row_number() OVER (ORDER BY i.id) - 1 AS position, count(*) OVER () AS total
      FROM items i WHERE i.status = 'active' AND EXISTS (SELECT 1 FROM variants v WHERE v.item_id = i.id AND v.quantity > 0)),
    slots AS (SELECT p, k FROM generate_series(1, $1) p, generate_series(0, $2 - 1) k),
    placed AS (
      SELECT slots.p, slots.k, s.id AS item_id,
        CASE WHEN ((slots.p - 1) / $3) % 2 = 0 THEN s.price_cents * 8 / 10 ELSE s.price_cents / 2 END AS max_price_cents
      FROM slots JOIN sellable s ON s.position = ((slots.p - 1) * $2 + slots.k) % s.total)`;
  const parameters = [
    persons,
    watchesPerPerson + alertsPerPerson,
    Math.ceil(items / (watchesPerPerson + alertsPerPerson)),
  ];
  await client.query(
    `${slots}
    INSERT INTO price_watches (person_id, client_id, item_id, size, max_price_cents, max_total_cents, expires_at)
    SELECT 'per_bench' || p, 'cli_benchwatch', item_id, (SELECT v.size FROM variants v WHERE v.item_id = placed.item_id AND v.quantity > 0 ORDER BY v.id LIMIT 1),
      max_price_cents, max_price_cents * 3 / 2 + 3000, now() + interval '7 days'
    FROM placed WHERE k < ${watchesPerPerson}`,
    parameters,
  );
  await client.query(
    `${slots}
    INSERT INTO price_alerts (id, person_id, client_id, item_id, target_price_cents)
    SELECT 'alr_bench' || p || '_' || k, 'per_bench' || p, 'cli_benchwatch', item_id, max_price_cents
    FROM placed WHERE k >= ${watchesPerPerson}`,
    parameters,
  );
  const count = async (table: string) =>
    Number(
      (await client.query(`SELECT count(*) FROM ${table} WHERE status = 'active'`)).rows[0].count,
    );
  // Settled as autovacuum would settle tables that just grew by 100,000 rows: the search phase
  // measures the watches live, not the one-off maintenance of loading them all at once.
  await client.query(`VACUUM ANALYZE price_watches, price_alerts`);
  return { watches: await count("price_watches"), alerts: await count("price_alerts") };
};

/** Price-change events not yet processed: nothing of the sale is settled while one is left. */
const eventsLeft = async (client: pg.Client) =>
  Number(
    (await client.query(`SELECT count(*) FROM price_change_events WHERE processed_at IS NULL`))
      .rows[0].count,
  );

/** Emails waiting in the outbox (pending: not yet sent, whether due now or retried later). */
const emailsWaiting = async (client: pg.Client) =>
  Number(
    (await client.query(`SELECT count(*) FROM email_messages WHERE status = 'pending'`)).rows[0]
      .count,
  );

/**
 * The sale's qualifying price watches not yet settled, or the unprocessed events (`unprocessed`:
 * nothing is settled while one is left). The watches are checked only once every event is
 * processed: the check (about 90 ms of PostgreSQL over the open ones, 11 s of a 140 s sale) would
 * otherwise take the box from what is measured. Each check deletes the settled ones from `bench_open_watches`.
 */
const priceWatchesOpen = async (client: pg.Client, unprocessed: number) => {
  if (unprocessed > 0) return unprocessed;
  return Number(
    (
      await client.query(`
    WITH settled AS (
      DELETE FROM bench_open_watches o USING price_watches w
      WHERE w.id = o.id AND (NOT ((w.status = 'active' AND NOT w.over_total) OR w.status = 'executing')
        -- or waiting, active, for its size to come back: held by another buyer (a buying search
        -- watch, since 1.9.0), it is back in stock only if that hold is released
        OR (w.status = 'active' AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.item_id = w.item_id
              AND v.quantity > 0 AND (w.size IS NULL OR v.size = w.size)))
        -- or waiting, active, for the person's hour of purchases to pass (too_many_purchases:
        -- a person whose watches, group and search watches all qualify in one sale)
        OR (w.status = 'active' AND EXISTS (SELECT 1 FROM (SELECT e.failed_condition FROM price_watch_evaluations e
              WHERE e.watch_id = w.id ORDER BY e.evaluated_at DESC, e.id DESC LIMIT 1) last
            WHERE last.failed_condition = 'too_many_purchases'))) RETURNING 1)
    SELECT (SELECT count(*) FROM bench_open_watches) - (SELECT count(*) FROM settled) AS open`)
    ).rows[0].open,
  );
};

export const benchWatches = async (options: { items: number; seconds: number }) => {
  const log = (line: string) => console.log(line);
  const machineAtStart = machine();
  process.env.BENCH_DB_PREFIX ??= "shopping_bench_watches_";
  const database = await ensureCatalogDatabase(options.items, log);
  const postgresServer = await postgresSettings();
  log(`PostgreSQL server: ${JSON.stringify(postgresServer)}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    log("resetting prices, stock, watches and purchases of earlier runs");
    await resetCatalog(client);
    await createWatchers(client);
    const vocabulary = await loadSearchVocabulary(client);
    const mix = searchMix(vocabulary, { seed: 20261122, count: 5000 }).map((entry) => entry.path);
    const service = await startService({
      databaseUrl: database.url,
      searchImpl: "memory",
      log,
      env: { DATABASE_POOL_MAX: process.env.BENCH_POOL ?? "20" },
    });
    try {
      const partners = await createPartners({
        baseUrl: service.baseUrl,
        databaseUrl: database.url,
        count: 40,
      });
      const authorization = tokenRotation(partners);
      let next = 0;
      const request = () => ({
        path: mix[next++ % mix.length],
        headers: { authorization: authorization(), "cache-control": "no-cache" },
      });
      const base = { baseUrl: service.baseUrl };
      await runOpenLoop({ ...base, durationSeconds: 5, rate: searchRate, next: request });
      log(`search mix without watches: open loop at ${searchRate} req/s, ${options.seconds} s`);
      const without = await runOpenLoop({
        ...base,
        durationSeconds: options.seconds,
        rate: searchRate,
        next: request,
      });
      const live = await createWatchesAndAlerts(client, options.items);
      // The same warm-up as before the first phase: the index reloads every watcher count once after the bulk insert.
      await runOpenLoop({ ...base, durationSeconds: 5, rate: searchRate, next: request });
      log(
        `${live.watches} live watches and ${live.alerts} alerts; search mix with them: open loop at ${searchRate} req/s, ${options.seconds} s`,
      );
      const withWatches = await runOpenLoop({
        ...base,
        durationSeconds: options.seconds,
        rate: searchRate,
        next: request,
      });
      const searchWatches = await createSearchWatches(client, {
        count: Number(process.env.BENCH_SEARCH_WATCHES ?? Math.round(options.items * 2.5)),
        persons,
      });
      await runOpenLoop({ ...base, durationSeconds: 5, rate: searchRate, next: request });
      log(
        `${searchWatches.notify ?? 0} notify and ${searchWatches.buy ?? 0} buying search watches live too; search mix: open loop at ${searchRate} req/s, ${options.seconds} s`,
      );
      const withSearchWatches = await runOpenLoop({
        ...base,
        durationSeconds: options.seconds,
        rate: searchRate,
        next: request,
      });
      const listings = await pickNewListings(client, Math.round(options.items / 10));

      // The sale: every fourth watched item drops to 70%, in one transaction through the one price-change path.
      const sale = (
        await client.query(
          `SELECT id, price_cents FROM items WHERE id IN (SELECT item_id FROM price_watches UNION SELECT item_id FROM price_alerts) ORDER BY id`,
        )
      ).rows
        .filter((_row, index) => index % 4 === 0) // of the watched items, every fourth
        .slice(0, saleItems)
        .map((row: { id: number; price_cents: number }) => ({
          itemId: row.id,
          priceCents: Math.max(1, Math.floor((row.price_cents * 7) / 10)),
        }));
      const groups = await createWatchGroups(client, {
        count: groupCount,
        saleItemIds: sale.map((change) => change.itemId),
      });
      process.env.DATABASE_URL = database.url;
      const { resetEnv } = await import("../server/platform/env");
      resetEnv();
      const { db } = await import("../server/platform/db");
      const { setItemPrices } = await import("../server/catalogue/set-item-price");
      const { listItems } = await import("../server/catalogue/list-items");
      const started = Date.now();
      // The new listings (one transaction a store) and the sale arrive together.
      const [listed] = await Promise.all([
        Promise.all(listings.map(({ slug, items }) => listItems(slug, items, { now: new Date() }))),
        setItemPrices(db(), sale, { now: new Date() }),
      ]);
      const saleMs = Date.now() - started;
      const listedCount = listed.reduce((sum, batch) => sum + batch.itemIds.length, 0);
      let searchSettledMs: number | null = null;
      let groupsSettledMs: number | null = null;
      const ids = sale.map((change) => change.itemId);
      // The qualifying watches in a table of their own, which each poll empties of the settled ones:
      // a poll then reads only what is still open (a join of the sale's 5,000 items with every watch
      // cost PostgreSQL about 100 ms a poll, a sixth of a core taken from what is measured).
      await client.query(`DROP TABLE IF EXISTS bench_open_watches`);
      await client.query(
        `
        CREATE TEMP TABLE bench_open_watches AS
        SELECT w.id FROM price_watches w JOIN items i ON i.id = w.item_id WHERE w.item_id = ANY($1) AND w.max_price_cents >= i.price_cents`,
        [ids],
      );
      await client.query(`ALTER TABLE bench_open_watches ADD PRIMARY KEY (id)`);
      await client.query(`ANALYZE bench_open_watches`);
      const qualifying = Number(
        (await client.query(`SELECT count(*) FROM bench_open_watches`)).rows[0].count,
      );
      log(
        `sale recorded (${sale.length} items) in ${saleMs} ms; ${qualifying} qualifying watches; waiting for every one to buy, decline, end or wait on a size another buyer holds`,
      );
      let settledMs: number | null = null;
      let emailsSentMs: number | null = null;
      let settledAt: number | undefined;
      const deadline = started + 600_000;
      while (Date.now() < deadline) {
        const unprocessed = await eventsLeft(client);
        const open = await priceWatchesOpen(client, unprocessed);
        if (searchSettledMs === null && (await searchWatchesOpen(client)) === 0)
          searchSettledMs = Date.now() - started;
        // The groups, like the price watches, once every event is processed (the check is about
        // 50 ms of PostgreSQL a poll over the sale's groups: 5 s of a 100 s sale otherwise).
        if (groupsSettledMs === null && unprocessed === 0 && (await watchGroupsOpen(client)) === 0)
          groupsSettledMs = Date.now() - started;
        if (open === 0 && settledMs === null) settledMs = Date.now() - started;
        const settled = settledMs !== null && searchSettledMs !== null && groupsSettledMs !== null;
        // The sale's emails, once it is settled (no more are queued): until none is left to send,
        // for at most five minutes more.
        if (settled) {
          if ((await emailsWaiting(client)) === 0) {
            emailsSentMs = Date.now() - started;
            break;
          }
          settledAt ??= Date.now();
          if (Date.now() > settledAt + 300_000) break;
        }
        // Once a second: each poll is PostgreSQL's time taken from what is measured.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const emailsLeft = await emailsWaiting(client);
      const emails = Number(
        (await client.query(`SELECT count(*) FROM email_messages`)).rows[0].count,
      );
      const searchFigures = await searchWatchFigures(client);
      const groupFigures = await watchGroupFigures(client);
      const outcomes = (
        await client.query(
          `SELECT status::text, count(*)::int AS count FROM price_watches WHERE item_id = ANY($1) AND max_price_cents >= (SELECT price_cents FROM items WHERE id = item_id) GROUP BY status ORDER BY status`,
          [ids],
        )
      ).rows;
      const duplicates = (
        await client.query(`
        SELECT (SELECT count(*) FROM purchases)::int AS purchases,
               -- A price watch (a group's alternative too) or a buying search watch: each records its one purchase.
               (SELECT count(*) FROM price_watches WHERE purchase_id IS NOT NULL)::int
               + (SELECT count(*) FROM search_watches WHERE purchase_id IS NOT NULL)::int AS watches_with_purchase,
               -- By normalised size: a watch for "US 7.5" may buy the item's "7.5" (one size key).
               (SELECT count(*) FROM (SELECT v.item_id, v.size_key, count(DISTINCT w.id) AS bought FROM price_watches w
                   JOIN variants v ON v.item_id = w.item_id AND v.size IS NOT DISTINCT FROM w.size WHERE w.status = 'fulfilled' GROUP BY 1, 2) f
                 JOIN (SELECT v.item_id, v.size_key, sum(o.quantity) AS quantity FROM variants v JOIN bench_watch_variants o ON o.variant_id = v.id GROUP BY 1, 2) s
                   ON s.item_id = f.item_id AND s.size_key IS NOT DISTINCT FROM f.size_key
                 WHERE f.bought > s.quantity)::int
               + (SELECT count(*) FROM variants WHERE quantity < 0)::int AS sizes_oversold`)
      ).rows[0];
      const alerts = (
        await client.query(
          `
        SELECT (SELECT count(*) FROM price_alerts a JOIN items i ON i.id = a.item_id JOIN stores s ON s.id = i.store_id
                WHERE a.item_id = ANY($1) AND a.target_price_cents >= i.price_cents AND ${storeCanSellSql("s")})::int AS qualifying,
               (SELECT count(*) FROM price_alerts WHERE status = 'notified')::int AS notified,
               (SELECT count(*) FROM email_messages WHERE template = 'price-alert')::int AS emails,
               (SELECT count(DISTINCT dedupe_key) FROM email_messages WHERE template = 'price-alert')::int AS distinct_emails`,
          [ids],
        )
      ).rows[0];
      // Alerts at their target that were not notified, by why: the alert's status, the item's, and
      // whether its store can sell (a sold item, or one a store cannot sell now, notifies nobody, by design).
      const unnotified = (
        await client.query(
          `
        SELECT a.status::text AS alert, i.status::text AS item, CASE WHEN ${storeCanSellSql("s")} THEN 'can sell' ELSE 'cannot sell' END AS store, count(*)::int AS count
        FROM price_alerts a JOIN items i ON i.id = a.item_id JOIN stores s ON s.id = i.store_id
        WHERE a.item_id = ANY($1) AND a.target_price_cents >= i.price_cents AND a.status <> 'notified' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
          [ids],
        )
      ).rows;
      const rows = [
        { metric: "live watches + alerts", value: live.watches + live.alerts, target: "100,000" },
        { metric: "  of which price alerts", value: live.alerts, target: "" },
        { metric: "sale: items repriced (one transaction), ms", value: saleMs, target: "" },
        { metric: "qualifying watches", value: qualifying, target: "" },
        {
          metric: "all qualifying bought, declined or ended, s",
          value: settledMs === null ? null : Math.round(settledMs / 100) / 10,
          target: "<= 60",
        },
        ...outcomes.map((row: { status: string; count: number }) => ({
          metric: `  qualifying -> ${row.status}`,
          value: row.count,
          target: "",
        })),
        {
          metric: "purchases made",
          value: duplicates.purchases,
          target: "= watches with a purchase",
        },
        {
          metric: "watches with a purchase (price, alternative or search)",
          value: duplicates.watches_with_purchase,
          target: "",
        },
        {
          metric: "purchases not recorded on a watch",
          value: duplicates.purchases - duplicates.watches_with_purchase,
          target: "0 once settled",
        },
        {
          metric: "sizes bought beyond their stock",
          value: duplicates.sizes_oversold,
          target: "0",
        },
        {
          metric: "alerts reached (target at or over the new price, store can sell)",
          value: alerts.qualifying,
          target: "",
        },
        { metric: "alerts notified", value: alerts.notified, target: "= alerts reached" },
        ...unnotified.map((row: { alert: string; item: string; store: string; count: number }) => ({
          metric: `  at target, not notified: alert ${row.alert}, item ${row.item}, store ${row.store}`,
          value: row.count,
          target: row.store === "can sell" && row.item === "active" ? "0" : "",
        })),
        {
          metric: "alert emails (distinct)",
          value: `${alerts.emails} (${alerts.distinct_emails})`,
          target: "one per alert",
        },
        { metric: "search mix p95 ms, no watches", value: without.p95, target: "" },
        {
          metric: "search mix p95 ms, 100,000 live watches and alerts",
          value: withWatches.p95,
          target: "<= 1.10 x",
        },
        {
          metric: "p95 ratio (with / without)",
          value: ratio(withWatches.p95, without.p95),
          target: "<= 1.10",
        },
        {
          metric: "search mix p95 ms, with the search watches live too",
          value: withSearchWatches.p95,
          target: "<= 1.10 x",
        },
        {
          metric: "p95 ratio (with search watches / without)",
          value: ratio(withSearchWatches.p95, without.p95),
          target: "<= 1.10",
        },
        {
          metric: "search errors",
          value: without.errors + withWatches.errors + withSearchWatches.errors,
          target: "0",
        },
        {
          metric: "live search watches (notify / buy)",
          value: `${searchWatches.notify ?? 0} / ${searchWatches.buy ?? 0}`,
          target: "50,000",
        },
        { metric: "new listings (with the sale)", value: listedCount, target: "2,000" },
        {
          metric: "all matching search watches notified or bought, s",
          value: searchSettledMs === null ? null : Math.round(searchSettledMs / 100) / 10,
          target: "<= 60",
        },
        { metric: "matches recorded", value: searchFigures.matches, target: "" },
        {
          metric: "notify watches matched / emailed",
          value: `${searchFigures.notify_matched} / ${searchFigures.notify_emailed}`,
          target: "equal",
        },
        {
          metric: "matches named in emails / marked emailed",
          value: `${searchFigures.named} / ${searchFigures.matches_emailed}`,
          target: "equal (zero double notifications)",
        },
        {
          metric: "buying watches matched / with a purchase / purchases",
          value: `${searchFigures.buy_matched} / ${searchFigures.buy_with_purchase} / ${searchFigures.buy_purchases}`,
          target: "one purchase per buying watch",
        },
        ...searchFigures.statuses.map((row) => ({
          metric: `  search watches ${row.mode} -> ${row.status}`,
          value: row.count,
          target: "",
        })),
        {
          metric: "any-of groups (alternatives), every alternative in the sale",
          value: `${groups.groups} (${groups.alternatives})`,
          target: "",
        },
        {
          metric: "all groups ended, s",
          value: groupsSettledMs === null ? null : Math.round(groupsSettledMs / 100) / 10,
          target: "<= 60",
        },
        {
          metric: "emails queued in the run (the sale's notifications, purchases)",
          value: emails,
          target: "",
        },
        {
          metric: "all of them sent, s from the sale (waited for 300 s after it settled)",
          value: emailsSentMs === null ? null : Math.round(emailsSentMs / 100) / 10,
          target: "",
        },
        { metric: "emails still waiting at the end", value: emailsLeft, target: "0" },
        { metric: "groups that bought", value: groupFigures.bought, target: "" },
        { metric: "groups that bought twice", value: groupFigures.bought_twice, target: "0" },
        ...groupFigures.statuses.map((row) => ({
          metric: `  groups -> ${row.status}${row.outcome ? ` (${row.outcome})` : ""}`,
          value: row.count,
          target: "",
        })),
      ];
      printTable(`price watches under a sale, ${options.items} items`, rows);
      const record = {
        name: "watches",
        items: options.items,
        measuredAt: new Date().toISOString(),
        machine: machine(),
        loadAverageAtStart: machineAtStart.loadAverage,
        database: database.name,
        postgresServer,
        searchRate,
        without,
        withWatches,
        withSearchWatches,
        searchWatches,
        listedCount,
        searchSettledMs,
        searchFigures,
        groups,
        groupsSettledMs,
        groupFigures,
        live,
        qualifying,
        settledMs,
        emails,
        emailsSentMs,
        emailsLeft,
        outcomes,
        duplicates,
        alerts,
        unnotified,
        table: rows,
      };
      console.log(`\nwrote ${writeResult(`watches-${options.items}`, record)}`);
      await db().$disconnect();
    } finally {
      await service.stop();
    }
  } finally {
    await client.end();
  }
};
