/**
 * The search-watch part of `npm run bench -- watches` (issue 29 §3): live search watches over the
 * catalogue, a batch of new listings written through the catalogue's listing path, and the figures
 * (how long until every matching search watch has notified or bought, one purchase per buying
 * watch, zero double notifications). The watches are written in bulk in SQL (as the price watches
 * are), so a person holds more than the API's per-person limit of 10: the bench measures the
 * matcher under the 50,000, not the limit.
 */
import type pg from "pg";

/** Tables the search watches fill (emptied by the next run, before persons and clients). */
export const searchWatchTables = ["search_watch_matches", "search_watches"];

/** One in this many search watches buys; the rest notify. */
const buyEvery = 20;

/**
 * `count` live search watches of the bench's persons, their filters taken from the catalogue's
 * own items (five shapes: brand+size+max_price, category+colour+max_price, store+price range,
 * a word of the title+max_price, brand+colour), so each matches some items and many match the
 * new listings and the sale. Every twentieth buys (max_total twice the price plus $50).
 */
export const createSearchWatches = async (
  client: pg.Client,
  options: { count: number; persons: number },
) => {
  await client.query(
    `
    WITH sellable AS (
      SELECT i.id, i.price_cents, i.brand, i.colors, i.size_keys, i.title, s.slug, c.path AS category,
        row_number() OVER (ORDER BY i.id) - 1 AS position, count(*) OVER () AS total
      FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id
      WHERE i.status = 'active' AND i.brand IS NOT NULL),
    shaped AS (
      SELECT n, s.*, to_char(s.price_cents / 100.0, 'FM999999990.00') AS max_price,
        to_char(s.price_cents / 200.0, 'FM999999990.00') AS min_price,
        (SELECT w FROM regexp_split_to_table(lower(s.title), '[^a-z]+') w WHERE length(w) > 4 LIMIT 1) AS word
      FROM generate_series(1, $1) n JOIN sellable s ON s.position = (n * 7919) % s.total)
    INSERT INTO search_watches (id, person_id, client_id, mode, filters, max_total_cents, expires_at, created_at, updated_at)
    SELECT 'srw_bench' || lpad(n::text, 20, '0'), 'per_bench' || (1 + n % $2), 'cli_benchwatch',
      (CASE WHEN n % ${buyEvery} = 0 THEN 'buy' ELSE 'notify' END)::"SearchWatchMode",
      CASE n % 5
        WHEN 0 THEN jsonb_build_object('brand', jsonb_build_array(brand), 'size', to_jsonb(size_keys[1:1]), 'color', '[]'::jsonb, 'max_price', max_price)
        WHEN 1 THEN jsonb_build_object('category', split_part(category, ' > ', 1), 'color', to_jsonb(colors[1:1]), 'size', '[]'::jsonb, 'brand', '[]'::jsonb, 'max_price', max_price)
        WHEN 2 THEN jsonb_build_object('store', slug, 'min_price', min_price, 'max_price', max_price, 'size', '[]'::jsonb, 'color', '[]'::jsonb, 'brand', '[]'::jsonb)
        WHEN 3 THEN jsonb_build_object('q', coalesce(word, 'coat'), 'max_price', max_price, 'size', '[]'::jsonb, 'color', '[]'::jsonb, 'brand', '[]'::jsonb)
        ELSE jsonb_build_object('brand', jsonb_build_array(brand), 'color', to_jsonb(colors[1:1]), 'size', '[]'::jsonb)
      END,
      CASE WHEN n % ${buyEvery} = 0 THEN price_cents * 2 + 5000 END,
      now() + interval '7 days', now(), now()
    FROM shaped`,
    [options.count, options.persons],
  );
  await client.query(`VACUUM ANALYZE search_watches`);
  const { rows } = await client.query(
    `SELECT mode::text, count(*)::int AS count FROM search_watches WHERE status = 'active' GROUP BY mode`,
  );
  return Object.fromEntries(
    rows.map((row: { mode: string; count: number }) => [row.mode, row.count]),
  );
};

/** The new listings: copies of `count` catalogue items (same words, brand, category, sizes, colour) at 90% of their price, per store. */
export const pickNewListings = async (client: pg.Client, count: number) => {
  const { rows } = await client.query(
    `
    SELECT s.slug, i.title, i.brand, i.description, c.path AS category, (i.price_cents * 9 / 10) AS price_cents,
      i.condition::text AS condition, i.sizes, i.colors[1] AS color
    FROM items i JOIN stores s ON s.id = i.store_id LEFT JOIN categories c ON c.id = i.category_id
    WHERE i.status = 'active' ORDER BY (i.id * 104729) % 1000003 LIMIT $1`,
    [count],
  );
  const byStore = new Map<string, typeof rows>();
  for (const row of rows) byStore.set(row.slug, [...(byStore.get(row.slug) ?? []), row]);
  return [...byStore.entries()].map(([slug, items]) => ({
    slug,
    items: items.map((row) => ({
      title: `${row.title} (new)`,
      brand: row.brand,
      description: row.description ?? "",
      categoryPath: row.category,
      priceCents: Math.max(100, Number(row.price_cents)),
      condition: row.condition,
      sizes: row.sizes ?? [],
      color: row.color,
      quantity: 1,
    })),
  }));
};

/** Whether the search watches are settled: every event handled, no buying watch still executing. */
export const searchWatchesOpen = async (client: pg.Client) =>
  Number(
    (
      await client.query(`
    SELECT (SELECT count(*) FROM price_change_events WHERE processed_at IS NULL) +
           (SELECT count(*) FROM search_watches WHERE status = 'executing') AS open`)
    ).rows[0].open,
  );

/**
 * What the search watches did: watches matched, notified (an email queued), bought (one purchase a
 * watch), and the double-notification check (every (watch, item) named in at most one email).
 */
export const searchWatchFigures = async (client: pg.Client) => {
  const [row] = (
    await client.query(`
    SELECT
      (SELECT count(DISTINCT search_watch_seq) FROM search_watch_matches m JOIN search_watches w ON w.seq = m.search_watch_seq WHERE w.mode = 'notify')::int AS notify_matched,
      (SELECT count(*) FROM search_watches WHERE mode = 'notify' AND last_emailed_at IS NOT NULL)::int AS notify_emailed,
      (SELECT count(*) FROM search_watch_matches)::int AS matches,
      (SELECT count(*) FROM search_watch_matches WHERE emailed_at IS NOT NULL)::int AS matches_emailed,
      (SELECT coalesce(sum(jsonb_array_length(props->'matches')), 0) FROM email_messages WHERE template = 'search-watch-matches')::int AS named,
      (SELECT count(*) FROM email_messages WHERE template = 'search-watch-matches')::int AS emails,
      (SELECT count(DISTINCT search_watch_seq) FROM search_watch_matches m JOIN search_watches w ON w.seq = m.search_watch_seq WHERE w.mode = 'buy')::int AS buy_matched,
      (SELECT count(*) FROM search_watches WHERE mode = 'buy' AND purchase_id IS NOT NULL)::int AS buy_with_purchase,
      (SELECT count(*) FROM purchases p JOIN search_watches w ON w.quote_id = p.quote_id)::int AS buy_purchases,
      (SELECT count(*) FROM search_watches WHERE mode = 'buy' AND status = 'fulfilled')::int AS bought`)
  ).rows;
  const statuses = (
    await client.query(
      `SELECT mode::text, status::text, count(*)::int AS count FROM search_watches GROUP BY 1, 2 ORDER BY 1, 2`,
    )
  ).rows as { mode: string; status: string; count: number }[];
  return { ...row, statuses } as {
    notify_matched: number;
    notify_emailed: number;
    matches: number;
    matches_emailed: number;
    named: number;
    emails: number;
    buy_matched: number;
    buy_with_purchase: number;
    buy_purchases: number;
    bought: number;
    statuses: typeof statuses;
  };
};
