/**
 * The matcher's in-memory index over the live search watches' filters (ADR 0117): each active
 * watch filed under its most selective required key (policy.ts `indexKeysOf`); an item looks up
 * candidates by its own keys, and each candidate is checked in full with search's own predicate
 * (the catalogue's `itemMatchesFilter`). So a new or changed item costs a few map lookups and a
 * handful of full checks, never a pass over every watch, and search itself is untouched.
 *
 * Fresh across instances: before each batch (at most every `refreshMs`) the watches changed since
 * the cursor (updated_at, the database's statement time, with an overlap for transactions that
 * committed late) are read and refiled; this process's own creates and cancels are filed at once.
 * The index only proposes: the match is written by a conditional insert that requires the watch
 * to be active and unexpired in PostgreSQL (store.ts `insertMatches`).
 */
import {
  itemMatchesFilter,
  type ItemMatchFacts,
  type SearchFilter,
  searchFilterOf,
} from "../catalogue";
import { poolSql, type Sql } from "../platform/sql";
import { indexKeysOf, itemKeysOf } from "./policy";
import { type IndexedWatchRow, readWatchesChangedSince, type StoredFilters } from "./store";

type Entry = {
  id: string;
  mode: "notify" | "buy";
  /** expires_at in ms: compared once per candidate. */
  expiresAtMs: number;
  maxTotalCents: number | null;
  filter: SearchFilter;
  keys: string[];
  /** The match() call that last looked at it: a watch filed under several of an item's keys is checked once. */
  seenIn: number;
};

/** How often the index reads changed watches at most (a change elsewhere is seen within this). */
const refreshMs = 200;
/** The cursor's overlap: a watch written by a transaction that committed this much later than its statement is still seen. */
const overlapMs = 2_000;

/** The normalised filter of stored filters and q's lexemes. */
export const filterOfStored = (
  filters: StoredFilters,
  lexemes: readonly string[],
): SearchFilter => ({
  ...searchFilterOf({
    q: filters.q,
    category: filters.category,
    size: filters.size ?? [],
    color: filters.color ?? [],
    brand: filters.brand ?? [],
    store: filters.store,
    min_price: filters.min_price,
    max_price: filters.max_price,
  }),
  lexemes,
});

type Match = Pick<Entry, "id" | "mode" | "maxTotalCents">;

/** Search's predicate, read once: an imported binding read in the hot loop is a getter call per candidate under tsx's CommonJS output. */
const matchesFilter = itemMatchesFilter;

export class WatchIndex {
  private readonly entries = new Map<string, Entry>();
  /** The entries themselves, not their ids: a candidate costs no lookup (the sale looks at thousands an item). */
  private readonly byKey = new Map<string, Set<Entry>>();
  private matchCalls = 0;
  private cursor: Date | null = null;
  private refreshedAt = 0;
  private refreshing: Promise<void> | undefined;

  get size() {
    return this.entries.size;
  }

  /** Files (or refiles) a watch from its row; drops it when it is no longer active. */
  put(
    row: Pick<
      IndexedWatchRow,
      "id" | "mode" | "status" | "expiresAt" | "maxTotalCents" | "filters" | "lexemes"
    >,
  ) {
    this.remove(row.id);
    if (row.status !== "active") return;
    const filter = filterOfStored(row.filters, row.lexemes);
    const entry: Entry = {
      id: row.id,
      mode: row.mode,
      expiresAtMs: row.expiresAt.getTime(),
      maxTotalCents: row.maxTotalCents,
      filter,
      keys: indexKeysOf(filter),
      seenIn: 0,
    };
    this.entries.set(row.id, entry);
    for (const key of entry.keys) {
      let filed = this.byKey.get(key);
      if (!filed) this.byKey.set(key, (filed = new Set()));
      filed.add(entry);
    }
  }

  remove(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    for (const key of entry.keys) {
      const filed = this.byKey.get(key);
      filed?.delete(entry);
      if (filed?.size === 0) this.byKey.delete(key);
    }
  }

  /** The live watches `item` matches now (search's predicate), with their modes and a buying one's max_total. */
  match(item: ItemMatchFacts, now: Date): Match[] {
    if (!item.canSellNow || this.entries.size === 0) return [];
    const lexemes = new Set(item.lexemes);
    const nowMs = now.getTime();
    const call = ++this.matchCalls;
    const found: Match[] = [];
    for (const key of itemKeysOf(item)) {
      const filed = this.byKey.get(key);
      if (!filed) continue;
      for (const entry of filed) {
        if (entry.seenIn === call) continue;
        entry.seenIn = call;
        if (entry.expiresAtMs > nowMs && matchesFilter(entry.filter, item, lexemes))
          found.push({ id: entry.id, mode: entry.mode, maxTotalCents: entry.maxTotalCents });
      }
    }
    return found;
  }

  /**
   * Reads the watches changed since the cursor (all live ones the first time); at most every
   * refreshMs unless `force`. `ifLoaded`: only when this process's index is already in use (a
   * create or cancel in a process that never matched leaves the first full load to the matcher).
   */
  refresh(
    sql: Sql = poolSql,
    options: { force?: boolean; ifLoaded?: boolean } = {},
  ): Promise<void> {
    if (options.ifLoaded && !this.cursor) return Promise.resolve();
    // A read already under way may have started before the caller's write committed: read again after it.
    if (options.force && this.refreshing)
      return this.refreshing.then(() => this.refresh(sql, { force: true }));
    if (!options.force && this.cursor && performance.now() - this.refreshedAt < refreshMs)
      return Promise.resolve();
    return (this.refreshing ??= (async () => {
      try {
        const since = this.cursor && new Date(this.cursor.getTime() - overlapMs);
        const { rows, at } = await readWatchesChangedSince(sql, since);
        for (const row of rows) this.put(row);
        this.cursor = at;
        this.refreshedAt = performance.now();
      } finally {
        this.refreshing = undefined;
      }
    })());
  }
}

/** This process's index (one per process, and one in the sweep's thread, which runs the processor). */
export const watchIndex = new WatchIndex();
