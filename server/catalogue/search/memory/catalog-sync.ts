/**
 * Keeps one process's in-memory index in step with PostgreSQL, the source of truth:
 * - builds it at start (searches fall back to pg-search until then);
 * - LISTENs on `catalog_changes` (migration 20261122120000) and reloads the rows each notification
 *   names, so a sold item or a new price shows within milliseconds on every instance;
 * - catches up by `updated_at` on an interval as a safety net (a lost connection, a missed
 *   notification), and compares the item count in the same snapshot to spot missed inserts or
 *   deletes, which trigger a full rebuild;
 * - if the LISTEN self-test fails (a connection pooler in transaction mode, for one, does not deliver
 *   notifications), polls with the catch-up every `pollMs` instead, which still bounds staleness.
 * - does the same for the live price watchers of each item (watcher-counts.ts): `watchers:` notifications
 *   from price_watches and price_alerts (migration 20261122224400), gathered for a fifth of a second
 *   and reloaded together, and the catch-up compares a checksum of the live rows per bucket of items
 *   with the one kept in memory and reloads the buckets that differ (watcher-counts.ts).
 * All reads and applications run one at a time in arrival order, so an older read never overwrites
 * a newer one. The index is swapped whole after a rebuild; searches never see a half-built one.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { count } from "../../../platform/observability/metrics";
import type { CatalogIndex } from "./catalog-index";
import {
  catchUpWatchers,
  loadWatcherCounts,
  reloadWatchedItems,
  type WatcherCounts,
} from "./watcher-counts";
import {
  applyItemRows,
  buildIndex,
  loadCategories,
  loadItemsByIds,
  loadItemsChangedSince,
  loadStores,
} from "./catalog-loader";
import { retainMs } from "./recent-prices";

export type CatalogSyncOptions = {
  databaseUrl: string;
  log?: (line: string) => void;
  /** Safety-net catch-up interval when notifications work. */
  catchUpMs?: number;
  /** Catch-up interval when they do not (the only freshness source then). */
  pollMs?: number;
  /** Catch-up re-reads this much before its last run: covers transactions that commit late. */
  overlapMs?: number;
  /**
   * `watchers:` notifications are gathered this long before their items are reloaded: a sale moves
   * thousands of watches a second, one notification each, and a count a fraction of a second late
   * is still right for what it tells (how many others watch). Item changes are applied at once.
   */
  watchersBatchMs?: number;
  /** Called after each batch of work is applied (the search thread sends the new version then). */
  onApplied?: () => void;
};

const catalogChannel = "catalog_changes";

type Work = {
  items: Set<number>;
  stores: boolean;
  categories: boolean;
  catchUp: boolean;
  rebuild: boolean;
  watchedItems: Set<number>;
  allWatchers: boolean;
};

const noWork = (): Work => ({
  items: new Set(),
  stores: false,
  categories: false,
  catchUp: false,
  rebuild: false,
  watchedItems: new Set(),
  allWatchers: false,
});

/** Both queues' work in one. */
const mergeWork = (a: Work, b: Work): Work => ({
  items: new Set([...a.items, ...b.items]),
  stores: a.stores || b.stores,
  categories: a.categories || b.categories,
  catchUp: a.catchUp || b.catchUp,
  rebuild: a.rebuild || b.rebuild,
  watchedItems: new Set([...a.watchedItems, ...b.watchedItems]),
  allWatchers: a.allWatchers || b.allWatchers,
});

const hasWork = (work: Work) =>
  work.rebuild ||
  work.catchUp ||
  work.stores ||
  work.categories ||
  work.items.size > 0 ||
  work.allWatchers ||
  work.watchedItems.size > 0;

export class CatalogSync {
  /** The index searches read; undefined until the first build finishes. */
  index: CatalogIndex | undefined;
  /** The live price watchers of each item; loaded with the index, so set whenever `index` is. */
  watchers: WatcherCounts | undefined;
  /** True when the LISTEN self-test passed. */
  isListening = false;
  stats = {
    buildMs: 0,
    builtAt: 0,
    rebuilds: 0,
    notifications: 0,
    catchUps: 0,
    lastAppliedAt: 0,
    watcherBucketsReloaded: 0,
    /** When the oldest change heard and not yet applied was heard (epoch ms; 0: none waits): the index's lag for /metrics. */
    pendingSince: 0,
  };

  private readonly options: Required<Omit<CatalogSyncOptions, "log" | "onApplied">> &
    Pick<CatalogSyncOptions, "log" | "onApplied">;
  private reader: pg.Client | undefined;
  private listener: pg.Client | undefined;
  private work = noWork();
  private draining: Promise<void> | undefined;
  private watermark = new Date(0);
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Our own pings in flight (the self-test, settledAfterCommits), by token. */
  private readonly pings = new Map<string, () => void>();
  private mismatches = 0;
  /** The drain that applies gathered `watchers:` notifications, while it waits for its batch. */
  private watchersDue: Promise<void> | undefined;

  constructor(options: CatalogSyncOptions) {
    this.options = {
      catchUpMs: 10_000,
      pollMs: 500,
      overlapMs: 5_000,
      watchersBatchMs: 200,
      ...options,
    };
  }

  private log(line: string) {
    this.options.log?.(`[search] ${line}`);
  }

  /** Connects, starts listening, builds the index and starts the catch-up timer. */
  async start() {
    await this.listen();
    this.work.rebuild = true;
    await this.drain();
    this.schedule(this.isListening ? this.options.catchUpMs : this.options.pollMs);
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining?.catch(() => undefined);
    await Promise.all(
      [this.reader?.end(), this.listener?.end()].map((closing) => closing?.catch(() => undefined)),
    );
  }

  /** Resolves when every change heard so far has been applied (tests, benchmarks). */
  async settled() {
    while (this.draining || this.watchersDue) await (this.watchersDue ?? this.draining);
  }

  /** Queues a full catch-up now (as the timer does) and waits for it. */
  async catchUpNow() {
    this.work.catchUp = true;
    await this.drain();
  }

  private schedule(intervalMs: number) {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      this.work.catchUp = true;
      void this.drain();
    }, intervalMs);
    this.timer.unref();
  }

  private async connectReader() {
    if (this.reader) return this.reader;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: "catalog-index",
    });
    client.on("error", () => {
      if (this.reader === client) this.reader = undefined;
    });
    await client.connect();
    return (this.reader = client);
  }

  private async listen() {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: "catalog-listen",
    });
    client.on("notification", (message) => this.onNotification(message.payload ?? ""));
    client.on("error", (error) => this.onListenerLost(client, error));
    client.on("end", () => this.onListenerLost(client));
    await client.connect();
    await client.query(`LISTEN ${catalogChannel}`);
    this.listener = client;
    this.isListening = await this.selfTest();
    this.log(
      this.isListening
        ? "listening for catalogue changes"
        : `notifications do not arrive here; polling every ${this.options.pollMs} ms`,
    );
  }

  /** The LISTEN self-test: a notification to ourselves arrives within two seconds. */
  private selfTest() {
    return this.ping(2000);
  }

  /**
   * Sends a notification to ourselves: true if it arrives within `timeoutMs` of being sent (the
   * clock starts after the send, so a slow connect on a busy machine does not fail the test). It is
   * delivered after every notification of a transaction that committed before it was sent.
   */
  private async ping(timeoutMs: number) {
    const token = randomUUID();
    let timeout: () => void = () => undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.pings.set(token, () => resolve(true));
      timeout = () => setTimeout(() => resolve(false), timeoutMs).unref();
    });
    try {
      const sender = new pg.Client({
        connectionString: this.options.databaseUrl,
        application_name: "catalog-ping",
      });
      await sender.connect();
      try {
        await sender.query("SELECT pg_notify($1, $2)", [catalogChannel, `ping:${token}`]);
      } finally {
        await sender.end().catch(() => undefined);
      }
      timeout();
      return await arrived;
    } finally {
      this.pings.delete(token);
    }
  }

  /**
   * Resolves when every change committed before the call has been heard and applied (tests): a ping
   * through the channel marks the point, then the gathered work is waited for. Throws when the ping
   * does not arrive (not listening).
   */
  async settledAfterCommits(timeoutMs = 5000) {
    if (!(await this.ping(timeoutMs)))
      throw new Error("the catalogue notifications did not arrive");
    await this.settled();
  }

  /** Queues a full rebuild now and waits for it (tests; an operator's reload). */
  async rebuildNow() {
    this.work.rebuild = true;
    await this.drain();
  }

  private onListenerLost(client: pg.Client, error?: Error) {
    if (this.listener !== client || this.stopped) return;
    this.listener = undefined;
    this.log(`lost the LISTEN connection (${error?.message ?? "closed"}); reconnecting`);
    // Changes made while disconnected are found by the catch-up after reconnecting.
    const retry = (delay: number) =>
      setTimeout(() => {
        if (this.stopped) return;
        this.listen()
          .then(() => {
            this.work.catchUp = true;
            void this.drain();
          })
          .catch(() => retry(Math.min(delay * 2, 10_000)));
      }, delay).unref();
    retry(200);
  }

  private onNotification(payload: string) {
    if (payload.startsWith("ping:")) {
      this.pings.get(payload.slice("ping:".length))?.();
      return;
    }
    this.stats.notifications++;
    const [kind, list = ""] = payload.split(":", 2);
    if (["item", "watchers", "store", "category"].includes(kind)) this.noteHeard();
    if (kind === "item") {
      if (list === "*") this.work.catchUp = true;
      else for (const id of list.split(",")) this.work.items.add(Number(id));
    } else if (kind === "watchers") {
      if (list === "*") this.work.allWatchers = true;
      else for (const id of list.split(",")) this.work.watchedItems.add(Number(id));
      this.watchersDue ??= new Promise<void>((resolve) =>
        setTimeout(() => {
          this.watchersDue = undefined;
          resolve(this.drain());
        }, this.options.watchersBatchMs).unref(),
      );
      return;
    } else if (kind === "store") this.work.stores = true;
    else if (kind === "category") this.work.categories = true;
    void this.drain();
  }

  /**
   * Runs queued work until none is left; one runner at a time. With nothing queued no runner starts:
   * an async body that finds no work finishes before its promise is stored, and its `finally` would
   * clear `draining` before the assignment set it to that settled promise, which every later drain
   * would then return without applying anything (issue 24: the gathered `watchers:` timer firing
   * after an item change had already applied its ids froze the index, counts and items alike).
   */
  /** When the oldest change in `work` (queued, not yet taken by a run) was heard; 0 when none. */
  private queuedSince = 0;

  /** A change was heard: the lag runs from the oldest one not applied (`stats.pendingSince`). */
  private noteHeard() {
    this.queuedSince ||= Date.now();
    this.stats.pendingSince ||= this.queuedSince;
  }

  private drain(): Promise<void> {
    if (this.draining) return this.draining;
    if (this.stopped || !hasWork(this.work)) return Promise.resolve();
    this.draining = (async () => {
      let work = noWork();
      let heardAt = 0;
      try {
        while (!this.stopped) {
          work = this.work;
          if (!hasWork(work)) break;
          heardAt = this.queuedSince;
          this.work = noWork();
          this.queuedSince = 0;
          // The batch being applied is the oldest change until it is in.
          this.stats.pendingSince = heardAt;
          await this.run(work);
          this.stats.pendingSince = this.queuedSince;
          this.options.onApplied?.();
        }
      } catch (error) {
        this.log(`sync failed, retrying on the next catch-up: ${(error as Error).message}`);
        this.reader?.end().catch(() => undefined);
        this.reader = undefined;
        // What the failed run was given is not lost: it runs again with the catch-up.
        this.work = mergeWork(this.work, work);
        this.work.catchUp = true;
        this.queuedSince = heardAt || this.queuedSince;
        this.stats.pendingSince = this.queuedSince;
      } finally {
        this.draining = undefined;
      }
    })();
    // The body awaits run() before it can finish (there was work), so the assignment above comes before its `finally`.
    return this.draining;
  }

  private async run(work: Work) {
    const reader = await this.connectReader();
    if (work.rebuild || !this.index) {
      await this.rebuild(reader);
      return;
    }
    const index = this.index;
    if (work.categories) index.setCategories(await loadCategories(reader));
    if (work.stores) for (const store of await loadStores(reader)) index.upsertStore(store);
    if (work.items.size) {
      const ids = [...work.items];
      const rows = await loadItemsByIds(reader, ids);
      await applyItemRows(reader, index, rows);
      const found = new Set(rows.map((row) => row.id));
      for (const id of ids) if (!found.has(id)) index.removeItem(id);
    }
    if (work.allWatchers || !this.watchers) this.watchers = await loadWatcherCounts(reader);
    else if (work.watchedItems.size)
      await reloadWatchedItems(reader, this.watchers, [...work.watchedItems]);
    if (work.catchUp) await this.catchUp(reader, index, this.watchers);
    this.stats.lastAppliedAt = Date.now();
    // New items all land in the newest bucket; re-balance before pages get slow, rebuild to drop dead slots.
    if (index.buckets.placedSinceRebalance > index.slotCount * 0.25 + 10_000)
      index.rebalanceBuckets();
    if (index.deadShare() > 0.3 && index.slotCount > 10_000) this.work.rebuild = true;
  }

  private async rebuild(reader: pg.Client) {
    const started = Date.now();
    const { rows } = await reader.query<{ now: Date }>("SELECT now()");
    const index = await buildIndex(reader, { horizonMs: rows[0].now.getTime() - retainMs });
    const watchers = await loadWatcherCounts(reader);
    this.watchers = watchers;
    this.index = index;
    this.watermark = new Date(rows[0].now.getTime() - this.options.overlapMs);
    this.stats.buildMs = Date.now() - started;
    this.stats.builtAt = Date.now();
    this.stats.rebuilds++;
    count("shopping_search_index_rebuilds_total");
    this.log(
      `index built: ${index.itemCount} items, ${index.postings.size} lexemes, ${Math.round(index.bytes() / 1048576)} MB of arrays, ${this.stats.buildMs} ms`,
    );
  }

  /** Rows changed since the last catch-up, and the item count, read in one snapshot. */
  private async catchUp(reader: pg.Client, index: CatalogIndex, watchers: WatcherCounts) {
    this.stats.catchUps++;
    await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    try {
      const { rows } = await reader.query<{ count: number; now: Date }>(
        "SELECT count(*)::int AS count, now() AS now FROM items",
      );
      const changed = await loadItemsChangedSince(reader, this.watermark);
      index.setCategories(await loadCategories(reader));
      for (const store of await loadStores(reader)) index.upsertStore(store);
      await applyItemRows(reader, index, changed);
      // Items whose latest price change has aged past every search's window leave the recent prices.
      index.prices.prune(rows[0].now.getTime() - retainMs);
      // Per bucket of items, not by updated_at (a row committed late with an earlier clock) nor by a total (errors cancel).
      const differing = await catchUpWatchers(reader, watchers);
      await reader.query("COMMIT");
      this.stats.watcherBucketsReloaded += differing.length;
      this.watermark = new Date(rows[0].now.getTime() - this.options.overlapMs);
      if (index.itemCount === rows[0].count) this.mismatches = 0;
      else if (++this.mismatches === 1) {
        // Maybe a notification for a delete is still queued: apply it and look again at once.
        this.work.catchUp = true;
      } else {
        this.log(`index holds ${index.itemCount} items, the database ${rows[0].count}: rebuilding`);
        this.mismatches = 0;
        this.work.rebuild = true;
      }
    } catch (error) {
      await reader.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }
}
