/**
 * The live watchers of every watched item, in memory (server/catalogue/search/watchers.ts defines them): for
 * each item, each watching person and how many live watches or alerts they have on it. A count for
 * a page is then a map lookup per item, with the viewer left out exactly (no subtraction that could
 * go wrong while the index lags behind the viewer's own new alert). Kept by catalog-sync.ts: whole
 * at a rebuild, per item after a `watchers:` notification, per bucket of items after a catch-up.
 *
 * The catch-up compares a checksum per bucket of items (`item_id % watcherBuckets`): the number of
 * live rows and the sum of a 32-bit hash of each row's (item, person), kept here as rows come and
 * go and computed by PostgreSQL over the live rows in the catch-up's snapshot. The hash is
 * PostgreSQL's `hashtext` (cheap), read with every row loaded, so both sides sum the same numbers
 * without this process computing it. Any item whose
 * watchers differ (a missed or misapplied reload, a row deleted with its person, one item one too
 * many and another one too few) changes its bucket's sums, and only those buckets are reloaded.
 * Nothing depends on updated_at, so a transaction that commits long after its clock was read is
 * found too. The cost is one aggregate over the live rows per catch-up, none per request.
 */
import { liveWatchersSql } from "../live-watchers-sql";
import type { Reader } from "./catalog-loader";

/** A live watch or alert: its item, its person and the hash of both (`rowHashSql`). */
type Row = { item_id: number; person_id: string; hash: number };

/** Buckets of items the catch-up compares (a bucket differing reloads its items). */
const watcherBuckets = 1024;

const bucketOf = (itemId: number) => ((itemId % watcherBuckets) + watcherBuckets) % watcherBuckets;

/** The hash of a live row's (item, person), a signed 32-bit integer. */
const rowHashSql = `hashtext(item_id::text || ':' || person_id)`;

/** The live rows (with their hash) of the items `where` selects. */
const liveRowsSql = (where?: string) =>
  `SELECT item_id, person_id, ${rowHashSql} AS hash FROM (${liveWatchersSql(where)}) w`;

export class WatcherCounts {
  /** Per item, per watching person: their live rows on it and the hash of (item, person). */
  private readonly byItem = new Map<number, Map<string, { rows: number; hash: number }>>();
  /** Live rows held per bucket, and the sum of their hashes (exact in a double: |sum| < 2^53). */
  private readonly bucketRows = new Float64Array(watcherBuckets);
  private readonly bucketHash = new Float64Array(watcherBuckets);

  /** Distinct watchers of the item other than `viewerId`. */
  count(itemId: number, viewerId: string | undefined): number {
    const people = this.byItem.get(itemId);
    if (!people) return 0;
    return viewerId !== undefined && people.has(viewerId) ? people.size - 1 : people.size;
  }

  /** Replaces what is held for `itemIds` with `rows` (the live rows of exactly those items). */
  replaceItems(itemIds: Iterable<number>, rows: Row[]) {
    for (const id of itemIds) this.dropItem(id);
    for (const row of rows) this.add(row);
  }

  /** Replaces what is held for every item of `buckets` with `rows` (the live rows of exactly those buckets). */
  replaceBuckets(buckets: readonly number[], rows: Row[]) {
    const wanted = new Set(buckets);
    const held = [...this.byItem.keys()].filter((id) => wanted.has(bucketOf(id)));
    this.replaceItems(held, rows);
  }

  /** The buckets whose rows and hash sum differ from `database`'s (buckets it leaves out hold nothing). */
  differingBuckets(database: readonly { bucket: number; rows: number; hash: number }[]): number[] {
    const rows = new Float64Array(watcherBuckets);
    const hash = new Float64Array(watcherBuckets);
    for (const row of database) {
      rows[row.bucket] = row.rows;
      hash[row.bucket] = row.hash;
    }
    const differing: number[] = [];
    for (let bucket = 0; bucket < watcherBuckets; bucket++) {
      if (rows[bucket] !== this.bucketRows[bucket] || hash[bucket] !== this.bucketHash[bucket])
        differing.push(bucket);
    }
    return differing;
  }

  private dropItem(itemId: number) {
    const people = this.byItem.get(itemId);
    if (!people) return;
    const bucket = bucketOf(itemId);
    for (const { rows, hash } of people.values()) {
      this.bucketRows[bucket] -= rows;
      this.bucketHash[bucket] -= rows * hash;
    }
    this.byItem.delete(itemId);
  }

  private add(row: Row) {
    let people = this.byItem.get(row.item_id);
    if (!people) this.byItem.set(row.item_id, (people = new Map()));
    const held = people.get(row.person_id);
    if (held) held.rows++;
    else people.set(row.person_id, { rows: 1, hash: row.hash });
    const bucket = bucketOf(row.item_id);
    this.bucketRows[bucket] += 1;
    this.bucketHash[bucket] += row.hash;
  }
}

/** Every live watcher row, as a new WatcherCounts. */
export const loadWatcherCounts = async (reader: Reader): Promise<WatcherCounts> => {
  const counts = new WatcherCounts();
  const { rows } = await reader.query<Row>(liveRowsSql());
  counts.replaceItems([], rows);
  return counts;
};

/** The live rows of `itemIds`, applied to `counts`. */
export const reloadWatchedItems = async (
  reader: Reader,
  counts: WatcherCounts,
  itemIds: number[],
) => {
  const { rows } = await reader.query<Row>({
    text: liveRowsSql("item_id = ANY($1::int[])"),
    values: [itemIds],
  });
  counts.replaceItems(itemIds, rows);
};

/**
 * The catch-up, in the caller's snapshot: compares each bucket's checksum with the database's and
 * reloads the items of the buckets that differ; returns those buckets (none when all agree).
 */
export const catchUpWatchers = async (reader: Reader, counts: WatcherCounts): Promise<number[]> => {
  const { rows } = await reader.query<{ bucket: number; rows: number; hash: number }>(
    `SELECT (item_id % ${watcherBuckets})::int AS bucket, count(*)::float8 AS rows, sum(${rowHashSql})::float8 AS hash
     FROM (${liveWatchersSql()}) w GROUP BY 1`,
  );
  const differing = counts.differingBuckets(rows);
  if (differing.length) {
    const { rows: live } = await reader.query<Row>({
      text: liveRowsSql(`item_id % ${watcherBuckets} = ANY($1::int[])`),
      values: [differing],
    });
    counts.replaceBuckets(differing, live);
  }
  return differing;
};
