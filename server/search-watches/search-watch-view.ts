/** A search watch as the wire shows it: its filters as given, mode, status, outcome, matches (count and the recent ones) and the purchase of a buy. */
import { toMoney } from "../core/money";
import { parseCents } from "../core/money";
import type { Sql } from "../platform/sql";
import type { TSearchWatch } from "./search-watch.schema";
import { type MatchRow, readMatchesOf, type SearchWatchRow } from "./store";

const recentMatches = 10;

const toWire = (row: SearchWatchRow, count: number, recent: readonly MatchRow[]): TSearchWatch => ({
  search_watch_id: row.id,
  mode: row.mode,
  status: row.status as TSearchWatch["status"],
  outcome: row.outcome,
  filters: {
    q: row.filters.q ?? null,
    category: row.filters.category ?? null,
    size: row.filters.size ?? [],
    color: row.filters.color ?? [],
    brand: row.filters.brand ?? [],
    store: row.filters.store ?? null,
    min_price:
      row.filters.min_price === undefined ? null : toMoney(parseCents(row.filters.min_price)),
    max_price:
      row.filters.max_price === undefined ? null : toMoney(parseCents(row.filters.max_price)),
  },
  max_total: row.maxTotalCents === null ? null : toMoney(row.maxTotalCents),
  matches_count: count,
  recent_matches: recent.map((match) => ({
    catalog_item_id: String(match.itemId),
    reason: match.reason,
    price: toMoney(match.priceCents),
    matched_at: match.matchedAt.toISOString(),
    emailed_at: match.emailedAt?.toISOString() ?? null,
  })),
  catalog_item_id: row.itemId === null ? null : String(row.itemId),
  purchase_id: row.purchaseId,
  order_number: row.orderNumber,
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
  ended_at: row.endedAt?.toISOString() ?? null,
});

/**
 * The watches as the wire shows them, each with how many of its matches an email has named (notify;
 * the dashboard shows it), their matches read in one go.
 */
export const withMatchCounts = async (sql: Sql, rows: readonly SearchWatchRow[]) => {
  const matches = await readMatchesOf(
    sql,
    rows.map((row) => row.id),
    recentMatches,
  );
  return rows.map((row) => ({
    watch: toWire(
      row,
      matches.counts.get(row.id) ?? 0,
      matches.recent.filter((match) => match.searchWatchId === row.id),
    ),
    notifiedCount: matches.notified.get(row.id) ?? 0,
  }));
};

/** The watches as the wire shows them, their matches read in one go. */
export const toWireSearchWatches = async (sql: Sql, rows: readonly SearchWatchRow[]) =>
  (await withMatchCounts(sql, rows)).map(({ watch }) => watch);
