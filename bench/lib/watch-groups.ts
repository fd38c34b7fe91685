/**
 * The any-of groups of `npm run bench -- watches` (issue 29 §4): `count` persons each hold one group
 * of three alternatives, all three among the sale's items (so one sale transaction drops every
 * alternative at once and several evaluators race for the group), each alternative's max_price at
 * 80% of its price (the sale's 70% qualifies it). Written in bulk in SQL, as the price watches are,
 * and counted afterwards: every group ends, and none buys twice.
 */
import type pg from "pg";

/** Tables the groups fill (emptied by the next run, before the price watches' persons). */
export const watchGroupTables = ["price_watch_groups"];

const alternativesPerGroup = 3;

/** One group for each of persons 1..count, its alternatives on the sale's items that person does not watch yet. */
export const createWatchGroups = async (
  client: pg.Client,
  options: { count: number; saleItemIds: readonly number[] },
) => {
  await client.query(
    `
    INSERT INTO price_watch_groups (id, person_id, client_id, max_total_cents, expires_at)
    SELECT 'pwg_bench' || p, 'per_bench' || p, 'cli_benchwatch', 1, now() + interval '7 days'
    FROM generate_series(1, $1) p`,
    [options.count],
  );
  // Alternatives: the sale's items at positions p*7+j*1009 (spread), skipping one the person already watches.
  await client.query(
    `
    WITH sale AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS position, count(*) OVER () AS total FROM items WHERE id = ANY($2)),
    picked AS (
      SELECT p, j, s.id AS item_id, i.price_cents FROM generate_series(1, $1) p CROSS JOIN generate_series(0, $3 - 1) j
      JOIN sale s ON s.position = (p * 7 + j * 1009) % s.total
      JOIN items i ON i.id = s.id
      WHERE NOT EXISTS (SELECT 1 FROM price_watches w WHERE w.person_id = 'per_bench' || p AND w.item_id = s.id))
    INSERT INTO price_watches (person_id, client_id, item_id, size, max_price_cents, max_total_cents, expires_at, group_id)
    SELECT 'per_bench' || p, 'cli_benchwatch', item_id,
      (SELECT v.size FROM variants v WHERE v.item_id = picked.item_id AND v.quantity > 0 ORDER BY v.id LIMIT 1),
      price_cents * 8 / 10, 1, now() + interval '7 days', 'pwg_bench' || p
    FROM picked`,
    [options.count, [...options.saleItemIds], alternativesPerGroup],
  );
  // (max_total 1 until here.) One max_total for the group: its dearest alternative's price, plus room for shipping and tax.
  await client.query(`
    WITH totals AS (SELECT group_id, max(max_price_cents) * 3 / 2 + 3000 AS total FROM price_watches WHERE group_id LIKE 'pwg_bench%' GROUP BY group_id)
    UPDATE price_watch_groups g SET max_total_cents = t.total FROM totals t WHERE t.group_id = g.id`);
  await client.query(`
    UPDATE price_watches w SET max_total_cents = g.max_total_cents FROM price_watch_groups g WHERE g.id = w.group_id`);
  await client.query(`VACUUM ANALYZE price_watch_groups, price_watches`);
  const { rows } = await client.query(
    `SELECT count(*)::int AS groups, (SELECT count(*)::int FROM price_watches WHERE group_id IS NOT NULL) AS alternatives FROM price_watch_groups`,
  );
  return rows[0] as { groups: number; alternatives: number };
};

/**
 * The groups not yet settled: buying (executing), or active with an alternative that could still buy
 * now (active, not over its total, its size in stock, its last evaluation not refused by the
 * person's purchases an hour). As for the price watches, an alternative whose size another buyer
 * holds waits, active, for that hold; one refused too_many_purchases waits for the hour to pass.
 */
export const watchGroupsOpen = async (client: pg.Client) =>
  Number(
    (
      await client.query(`
        SELECT count(*) AS open FROM price_watch_groups g
        WHERE g.status = 'executing' OR (g.status = 'active' AND EXISTS (
          SELECT 1 FROM price_watches w WHERE w.group_id = g.id AND w.status = 'active' AND NOT w.over_total
            AND EXISTS (SELECT 1 FROM variants v WHERE v.item_id = w.item_id AND v.quantity > 0
              AND (w.size IS NULL OR v.size = w.size))
            AND NOT EXISTS (SELECT 1 FROM (SELECT e.failed_condition FROM price_watch_evaluations e
                WHERE e.watch_id = w.id ORDER BY e.evaluated_at DESC, e.id DESC LIMIT 1) last
              WHERE last.failed_condition = 'too_many_purchases')))`)
    ).rows[0].open,
  );

/** The groups' outcomes and the double-purchase check (purchases of one group's alternatives). */
export const watchGroupFigures = async (client: pg.Client) => {
  const [row] = (
    await client.query(`
    SELECT
      (SELECT count(*) FROM price_watch_groups WHERE purchase_id IS NOT NULL)::int AS bought,
      (SELECT count(*) FROM (SELECT w.group_id FROM price_watches w JOIN purchases p ON p.id = w.purchase_id
          WHERE w.group_id IS NOT NULL GROUP BY w.group_id HAVING count(*) > 1) d)::int AS bought_twice`)
  ).rows;
  const statuses = (
    await client.query(
      `SELECT status::text, coalesce(outcome, '') AS outcome, count(*)::int AS count FROM price_watch_groups GROUP BY 1, 2 ORDER BY 1, 2`,
    )
  ).rows as { status: string; outcome: string; count: number }[];
  return { ...(row as { bought: number; bought_twice: number }), statuses };
};
