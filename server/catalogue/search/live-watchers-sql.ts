/**
 * The SQL of the live watcher rows (server/catalogue/search/watchers.ts says what a live watcher is),
 * apart from the database module: the search thread loads it (memory/watcher-counts.ts) without
 * Prisma.
 */

/** The statuses in which a price watch or a price alert is live (counted). */
const liveWatchStatuses = ["active", "executing"] as const;
const liveAlertStatuses = ["active"] as const;

const statusList = (statuses: readonly string[]) =>
  statuses.map((status) => `'${status}'`).join(", ");

/**
 * SQL of the live watcher rows (item_id, person_id), one per live watch or alert, each table
 * filtered by `where` (a condition on its own columns, e.g. `item_id = ANY($1::int[])`).
 */
export const liveWatchersSql = (where = "TRUE") => `
  SELECT item_id, person_id FROM price_watches WHERE status IN (${statusList(liveWatchStatuses)}) AND ${where}
  UNION ALL
  SELECT item_id, person_id FROM price_alerts WHERE status IN (${statusList(liveAlertStatuses)}) AND ${where}`;
