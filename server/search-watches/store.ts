/**
 * Search-watches store: the `search_watches` and `search_watch_matches` tables, the only place they
 * are queried (ADR 0103). Raw SQL (typed `Sql`) throughout: the matcher runs for every catalogue
 * event (a sale is thousands) in raw `pg` transactions, and the same statements serve the
 * procedures (a Prisma client is a `Sql` too). Every move is one guarded conditional update
 * (`moveSearchWatch`, from the state table), so two processors never both move a watch. updated_at
 * is the database's statement time of the last change the matcher's index cares about (a new
 * watch, a status move): its cursor (the database's clock, not the injected one). An email turn,
 * a lease or a purchase kept on an executing watch leave it as it is.
 */
import { Prisma } from "../generated/prisma/client";
import { searchLexemesSql } from "../catalogue";
import { hasPurchaseGrantSql } from "../purchases";
import type { Sql } from "../platform/sql";
import { isLiveStandingOrder, outcomeOfMove } from "../core/standing-order";
import { type SearchWatchEvent, searchWatchTransition } from "./states";

export type StoredFilters = {
  q?: string;
  category?: string;
  size: string[];
  color: string[];
  brand: string[];
  store?: string;
  min_price?: string;
  max_price?: string;
};

export type SearchWatchRow = {
  id: string;
  personId: string;
  clientId: string;
  mode: "notify" | "buy";
  status: string;
  outcome: string | null;
  filters: StoredFilters;
  maxTotalCents: number | null;
  itemId: number | null;
  quoteId: string | null;
  purchaseId: string | null;
  orderNumber: string | null;
  lastEmailedAt: Date | null;
  expiresAt: Date;
  claimedAt: Date | null;
  endedAt: Date | null;
  createdAt: Date;
};

const columns = Prisma.sql`w.id, w.person_id AS "personId", w.client_id AS "clientId", w.mode::text AS mode, w.status::text AS status,
  w.outcome, w.filters, w.max_total_cents AS "maxTotalCents", w.item_id AS "itemId", w.quote_id AS "quoteId",
  w.purchase_id AS "purchaseId", w.order_number AS "orderNumber", w.last_emailed_at AS "lastEmailedAt",
  w.expires_at AS "expiresAt", w.claimed_at AS "claimedAt", w.ended_at AS "endedAt", w.created_at AS "createdAt"`;

const liveStatuses = Prisma.sql`w.status IN ('active', 'executing')`;

/** The person's live search watches, counted under their row lock (accounts' lockPerson, taken by the caller). */
export const countLiveWatches = async (sql: Sql, personId: string) => {
  const [row] = await sql.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM search_watches w WHERE w.person_id = ${personId} AND ${liveStatuses}`;
  return row.count;
};

export const insertSearchWatch = (
  sql: Sql,
  watch: {
    id: string;
    personId: string;
    clientId: string;
    mode: "notify" | "buy";
    filters: StoredFilters;
    maxTotalCents: number | null;
    expiresAt: Date;
    createdAt: Date;
  },
) =>
  sql.$executeRaw`
    INSERT INTO search_watches (id, person_id, client_id, mode, filters, max_total_cents, expires_at, created_at, updated_at)
    VALUES (${watch.id}, ${watch.personId}, ${watch.clientId}, ${watch.mode}::"SearchWatchMode", ${JSON.stringify(watch.filters)}::jsonb,
      ${watch.maxTotalCents}, ${watch.expiresAt}, ${watch.createdAt}, statement_timestamp())`;

/** The person's watch `id`; undefined when it is not theirs, or none. */
export const findPersonWatch = async (sql: Sql, personId: string, id: string) => {
  const [row] = await sql.$queryRaw<SearchWatchRow[]>`
    SELECT ${columns} FROM search_watches w WHERE w.id = ${id} AND w.person_id = ${personId}`;
  return row;
};

/** A page of the person's watches, newest first, and how many they have. */
export const listPersonWatches = async (
  sql: Sql,
  personId: string,
  page: { skip: number; take: number },
) => {
  const [rows, [{ total }]] = await Promise.all([
    sql.$queryRaw<SearchWatchRow[]>`
      SELECT ${columns} FROM search_watches w WHERE w.person_id = ${personId}
      ORDER BY w.created_at DESC, w.id DESC OFFSET ${page.skip} LIMIT ${page.take}`,
    sql.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM search_watches WHERE person_id = ${personId}`,
  ]);
  return { rows, total };
};

export type MatchRow = {
  searchWatchId: string;
  itemId: number;
  reason: "new_listing" | "price_change" | "back_in_stock";
  priceCents: number;
  matchedAt: Date;
  emailedAt: Date | null;
};

/** For each watch: how many matches it has, how many of them an email named, and its `recent` newest. */
export const readMatchesOf = async (sql: Sql, ids: readonly string[], recent: number) => {
  if (ids.length === 0)
    return {
      counts: new Map<string, number>(),
      notified: new Map<string, number>(),
      recent: [] as MatchRow[],
    };
  const [counts, rows] = await Promise.all([
    sql.$queryRaw<{ id: string; count: number; notified: number }[]>`
      SELECT w.id, count(*)::int AS count, count(m.emailed_at)::int AS notified
      FROM search_watches w JOIN search_watch_matches m ON m.search_watch_seq = w.seq
      WHERE w.id = ANY(${[...ids]}::text[]) GROUP BY w.id`,
    sql.$queryRaw<MatchRow[]>`
      SELECT w.id AS "searchWatchId", m.item_id AS "itemId", m.reason, m.price_cents AS "priceCents",
        m.matched_at AS "matchedAt", m.emailed_at AS "emailedAt"
      FROM search_watches w CROSS JOIN LATERAL (
        SELECT * FROM search_watch_matches WHERE search_watch_seq = w.seq ORDER BY matched_at DESC, item_id DESC LIMIT ${recent}) m
      WHERE w.id = ANY(${[...ids]}::text[])`,
  ]);
  return {
    counts: new Map(counts.map((row) => [row.id, row.count])),
    notified: new Map(counts.map((row) => [row.id, row.notified])),
    recent: rows,
  };
};

/**
 * Moves the watch along `event`'s arrow (states.ts) if it is in one of the rule's statuses (and
 * before or after its expiry where the rule says), setting `data`; the moved row, or undefined when
 * the watch was elsewhere (another run moved it first). Ending moves stamp ended_at.
 */
export const moveSearchWatch = async (
  sql: Sql,
  move: {
    id: string;
    event: SearchWatchEvent;
    now: Date;
    outcome?: string;
    personId?: string;
    data?: {
      itemId?: number | null;
      quoteId?: string | null;
      claimedAt?: Date | null;
      purchaseId?: string;
      orderNumber?: string | null;
    };
  },
) => {
  const rule = searchWatchTransition(move.event);
  const data = move.data ?? {};
  const isEnd = !isLiveStandingOrder(rule.to);
  const outcome = outcomeOfMove(rule, move.outcome);
  const set = (column: string, value: unknown, present: boolean) =>
    present ? Prisma.sql`, ${Prisma.raw(column)} = ${value}` : Prisma.empty;
  const [row] = await sql.$queryRaw<SearchWatchRow[]>`
    UPDATE search_watches w SET status = ${rule.to}::"SearchWatchStatus", updated_at = statement_timestamp()
      ${set("outcome", outcome, outcome !== null)}
      ${set("ended_at", move.now, isEnd)}
      ${set("item_id", data.itemId, "itemId" in data)}
      ${set("quote_id", data.quoteId, "quoteId" in data)}
      ${set("claimed_at", data.claimedAt, "claimedAt" in data)}
      ${set("purchase_id", data.purchaseId, "purchaseId" in data)}
      ${set("order_number", data.orderNumber, "orderNumber" in data)}
    WHERE w.id = ${move.id} AND w.status::text = ANY(${[...rule.from]}::text[])
      ${move.personId ? Prisma.sql`AND w.person_id = ${move.personId}` : Prisma.empty}
      ${rule.needsUnexpired ? Prisma.sql`AND w.expires_at > ${move.now}` : Prisma.empty}
      ${rule.needsExpired ? Prisma.sql`AND w.expires_at <= ${move.now}` : Prisma.empty}
    RETURNING ${columns}`;
  return row;
};

/** Keeps a purchase still processing on its executing watch (the recovery sweep records its answer). */
export const keepPurchaseOnWatch = (sql: Sql, id: string, purchaseId: string) =>
  sql.$executeRaw`UPDATE search_watches SET purchase_id = ${purchaseId}
    WHERE id = ${id} AND status = 'executing'`;

// ---- The matcher ---------------------------------------------------------------------------

export type IndexedWatchRow = {
  id: string;
  mode: "notify" | "buy";
  status: string;
  expiresAt: Date;
  /** A buying watch's max_total (null for notify). */
  maxTotalCents: number | null;
  filters: StoredFilters;
  lexemes: string[];
  updatedAt: Date;
};

/**
 * Watches changed at or after `since` (every live one when null), with q's lexemes as search makes
 * them, and the database's time of the read (the next cursor).
 */
export const readWatchesChangedSince = async (sql: Sql, since: Date | null) => {
  // The cursor is read first: a watch written while the rows are read is at or after it.
  const [{ at }] = await sql.$queryRaw<{ at: Date }[]>`SELECT statement_timestamp() AS at`;
  const rows = await sql.$queryRaw<IndexedWatchRow[]>`
    SELECT w.id, w.mode::text AS mode, w.status::text AS status, w.expires_at AS "expiresAt",
      w.max_total_cents AS "maxTotalCents", w.filters,
      ${searchLexemesSql(Prisma.sql`w.filters->>'q'`)} AS lexemes, w.updated_at AS "updatedAt"
    FROM search_watches w
    WHERE ${since === null ? Prisma.sql`w.status = 'active'` : Prisma.sql`w.updated_at >= ${since}`}`;
  return { rows, at };
};

/**
 * Records one match per (watch, item) for the watches still active and unexpired (the final word
 * over the in-memory index); returns the new ones with the watch's mode. ON CONFLICT DO NOTHING:
 * an item matches a watch at most once, however many events and processors.
 */
export const insertMatches = (
  sql: Sql,
  match: {
    watchIds: readonly string[];
    itemId: number;
    reason: string;
    priceCents: number;
    now: Date;
  },
) =>
  sql.$queryRaw<{ id: string; mode: "notify" | "buy" }[]>`
    WITH live AS (
      SELECT w.id, w.seq, w.mode FROM search_watches w
      WHERE w.id = ANY(${[...match.watchIds]}::text[]) AND w.status = 'active' AND w.expires_at > ${match.now}),
    fresh AS (
      INSERT INTO search_watch_matches (search_watch_seq, item_id, reason, price_cents, matched_at)
      SELECT seq, ${match.itemId}, ${match.reason}, ${match.priceCents}, ${match.now} FROM live
      -- In key order: two events of one item handled at once insert the same pairs in the same order (no deadlock).
      ORDER BY seq
      ON CONFLICT DO NOTHING RETURNING search_watch_seq)
    -- The modes from the watches read above: joined with search_watches itself, the few hundred
    -- new rows were planned as a hash of every watch (a sequential scan of 50,000, half of the
    -- statement's time in the sale benchmark).
    SELECT l.id, l.mode::text AS mode FROM fresh f JOIN live l ON l.seq = f.search_watch_seq`;

// ---- Notification emails -----------------------------------------------------------------------

export type ClaimedEmail = { id: string; personId: string; email: string; filters: StoredFilters };

/**
 * Takes the notify watches among `ids` whose last email is older than `windowStart` (or never),
 * live or expired (an expired watch's last matches still reach the person, in a final digest):
 * last_emailed_at moves to `now` in one conditional update, so of two processors only one sends.
 * Only watches whose turn may be due are locked, and a watch another transaction holds is skipped:
 * that one is taking the turn (or ending the watch), so the caller's match waits for the hourly
 * digest, as it would after the other's email. Waiting instead serialised the processor: a sale's
 * items match the same broad searches, and every event locked all of them (bench: 300 s, ADR 0117).
 */
export const claimEmailTurn = (sql: Sql, ids: readonly string[], now: Date, windowStart: Date) =>
  sql.$queryRaw<ClaimedEmail[]>`
    WITH locked AS (
      SELECT id FROM search_watches WHERE id = ANY(${[...ids]}::text[]) AND mode = 'notify' AND status IN ('active', 'expired')
        AND (last_emailed_at IS NULL OR last_emailed_at <= ${windowStart})
      FOR NO KEY UPDATE SKIP LOCKED)
    UPDATE search_watches w SET last_emailed_at = ${now}
    FROM persons p
    WHERE w.id IN (SELECT id FROM locked) AND w.mode = 'notify' AND w.status IN ('active', 'expired') AND p.id = w.person_id
      AND (w.last_emailed_at IS NULL OR w.last_emailed_at <= ${windowStart})
      AND EXISTS (SELECT 1 FROM search_watch_matches m WHERE m.search_watch_seq = w.seq AND m.emailed_at IS NULL)
    RETURNING w.id, w.person_id AS "personId", p.email, w.filters`;

/** Marks the watches' pending matches emailed; returns them (each is named in exactly one email). */
export const takePendingMatches = (sql: Sql, ids: readonly string[], now: Date) =>
  sql.$queryRaw<{ searchWatchId: string; itemId: number; reason: string; priceCents: number }[]>`
    UPDATE search_watch_matches m SET emailed_at = ${now}
    FROM search_watches w
    WHERE w.id = ANY(${[...ids]}::text[]) AND m.search_watch_seq = w.seq AND m.emailed_at IS NULL
    RETURNING w.id AS "searchWatchId", m.item_id AS "itemId", m.reason, m.price_cents AS "priceCents"`;

/**
 * Notify watches with pending matches whose hour is up: the digest's turn. Also expired ones: the
 * matches found in a watch's last hour are sent when that hour is up (a cancelled watch sends none).
 * Run it on `poolSqlReplanned`: its plan must follow the pending matches' size (ADR 0132).
 */
export const findDigestsDue = async (sql: Sql, windowStart: Date, limit: number) =>
  (
    await sql.$queryRaw<{ id: string }[]>`
      SELECT w.id FROM search_watches w
        -- From the watches whose hour is up (few, in a sale: most emailed within it), one probe of
        -- the pending matches each, never a walk of them (a sale's million rows, every five
        -- seconds). A lateral LIMIT 1 keeps that shape: as EXISTS, with the table's statistics
        -- behind a sale's inserts, it was planned as a merge join reading every pending match
        -- (680 ms a run, 14 s of PostgreSQL in the benchmark's sale, against 32 ms).
        CROSS JOIN LATERAL (
          SELECT 1 FROM search_watch_matches m WHERE m.search_watch_seq = w.seq AND m.emailed_at IS NULL LIMIT 1) pending
      WHERE w.mode = 'notify' AND w.status IN ('active', 'expired') AND (w.last_emailed_at IS NULL OR w.last_emailed_at <= ${windowStart})
      LIMIT ${limit}`
  ).map((row) => row.id);

// ---- Expiry and recovery ----------------------------------------------------------------------

/** Active watches whose expiry has passed. */
export const findDueExpiries = async (sql: Sql, now: Date, limit: number) =>
  (
    await sql.$queryRaw<{ id: string }[]>`
      SELECT id FROM search_watches WHERE status = 'active' AND expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`
  ).map((row) => row.id);

/** Executing watches claimed before `before` (a crash, a slow bank). */
export const findStaleExecuting = (sql: Sql, before: Date) =>
  sql.$queryRaw<{ id: string; quoteId: string | null; purchaseId: string | null }[]>`
    SELECT id, quote_id AS "quoteId", purchase_id AS "purchaseId" FROM search_watches
    WHERE status = 'executing' AND claimed_at < ${before} ORDER BY claimed_at LIMIT 100`;

/** Takes a stale executing watch for this run: claimed_at moves forward (a second instance skips it). */
export const leaseExecuting = async (sql: Sql, id: string, before: Date, now: Date) =>
  (await sql.$executeRaw`
    UPDATE search_watches SET claimed_at = ${now}
    WHERE id = ${id} AND status = 'executing' AND claimed_at < ${before}`) === 1;

// ---- Buying ------------------------------------------------------------------------------------

export type BuyingWatch = {
  id: string;
  clientId: string;
  personId: string;
  status: string;
  maxTotalCents: number;
  filters: StoredFilters;
  quoteId: string | null;
  address: Record<string, string | null> | null;
  sizes: string[];
};

/** A buying watch with its person's saved address (a quote's shipping_address) and saved sizes. */
export const readBuyingWatch = async (sql: Sql, id: string) => {
  const [row] = await sql.$queryRaw<BuyingWatch[]>`
    SELECT w.id, w.client_id AS "clientId", w.person_id AS "personId", w.status::text AS status,
      w.max_total_cents AS "maxTotalCents", w.filters, w.quote_id AS "quoteId", p.sizes,
      (SELECT json_build_object('name', a.name, 'line1', a.line1, 'line2', a.line2, 'city', a.city, 'province', a.province,
          'postal_code', a.postal_code, 'country', a.country, 'phone', a.phone)
        FROM shipping_addresses a WHERE a.person_id = w.person_id) AS address
    FROM search_watches w JOIN persons p ON p.id = w.person_id WHERE w.id = ${id} AND w.mode = 'buy'`;
  return row;
};

/**
 * Under the person's lock (the purchase's step 1c): the watch still executing and unexpired
 * (`live`), and its person still lets its assistant buy (`granted`: purchases' one rule).
 */
export const readClaimStanding = async (sql: Sql, id: string, now: Date) => {
  const [row] = await sql.$queryRaw<{ live: boolean; granted: boolean }[]>`
    SELECT w.status = 'executing' AND w.expires_at > ${now} AS live,
      ${hasPurchaseGrantSql(Prisma.sql`w.client_id`, Prisma.sql`w.person_id`, now)} AS granted
    FROM search_watches w WHERE w.id = ${id}`;
  return row;
};

/** Borrowed from purchases' table until it offers the join (ADR 0103, "Still crossing"). */
/** The purchase of the watch's recorded quote, if one exists (its one purchase). */
export const findPurchaseOfWatchQuote = async (sql: Sql, id: string) => {
  const [made] = await sql.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM search_watches w JOIN purchases p ON p.quote_id = w.quote_id WHERE w.id = ${id}`;
  return made?.id;
};
