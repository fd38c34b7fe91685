/**
 * Price-watches store: the `price_watches` rows as the procedures, the pages and the jobs read and
 * set them. Prisma: a person's few rows at a time, or a batch of the sweep, nothing measured hot
 * (the sale path's statements are raw: evaluation.ts, moves.ts). A watch's item (title, live
 * price) is the catalogue's, read through its index (price-watch-view.ts `withItems`).
 */
import type { Db, Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import { liveWatchStatuses, type PriceWatchState } from "../states";

type Client = Db | Tx;

/** What the wire shape needs of a watch's own row (its item's title and price come from the catalogue). */
export const watchSelect = {
  id: true,
  status: true,
  itemId: true,
  size: true,
  maxPriceCents: true,
  maxTotalCents: true,
  dropPercent: true,
  outcome: true,
  orderNumber: true,
  purchaseId: true,
  checkoutId: true,
  expiresAt: true,
  createdAt: true,
  groupId: true,
} as const;

export type WatchRow = {
  id: number;
  status: PriceWatchState;
  itemId: number;
  size: string | null;
  maxPriceCents: number;
  maxTotalCents: number;
  /** The percentage below the price at creation it was set with (1.9.0); null when max_price was given. */
  dropPercent: number | null;
  outcome: string | null;
  orderNumber: string | null;
  purchaseId: string | null;
  checkoutId: string | null;
  expiresAt: Date;
  createdAt: Date;
  /** The any-of group it is an alternative of (groups/), or null. */
  groupId: string | null;
};

type Page = { personId: string; page: number; pageSize: number };

/** The person's watch `id` (null when it is not theirs, or none). */
export const findPersonWatch = (
  db: Client,
  personId: string,
  id: number,
): Promise<WatchRow | null> =>
  db.priceWatch.findFirst({ where: { id, personId }, select: watchSelect });

/** A page of the person's watches, newest first, and how many they have. */
export const listPersonWatches = async (db: Client, { personId, page, pageSize }: Page) => {
  const [rows, total] = await Promise.all([
    db.priceWatch.findMany({
      where: { personId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: watchSelect,
    }),
    db.priceWatch.count({ where: { personId } }),
  ]);
  return { rows: rows as WatchRow[], total };
};

/**
 * A page of the person's watches, newest first, one more than the page to tell whether more
 * follow, each with the assistant (client) that set it (the dashboard's list).
 */
export const listWatchesOfPerson = (
  db: Client,
  { personId, page, pageSize }: Page,
): Promise<(WatchRow & { clientId: string })[]> =>
  db.priceWatch.findMany({
    where: { personId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * pageSize,
    take: pageSize + 1,
    select: { ...watchSelect, clientId: true },
  });

/** Whether the price watch is the person's. */
export const isWatchOfPerson = async (db: Client, options: { personId: string; id: number }) =>
  (await db.priceWatch.count({ where: { id: options.id, personId: options.personId } })) > 0;

/** Whether a watch `id` exists. */
export const watchExists = async (db: Client, id: number) =>
  (await db.priceWatch.count({ where: { id } })) > 0;

/** A watch by id with its person (null when none). */
export const findWatch = (
  db: Client,
  id: number,
): Promise<(WatchRow & { personId: string }) | null> =>
  db.priceWatch.findUnique({ where: { id }, select: { ...watchSelect, personId: true } });

/** A watch's status (it exists). */
export const readWatchStatus = async (db: Client, id: number): Promise<PriceWatchState> =>
  (await db.priceWatch.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

/** A watch's status and due time (null when none): the expiry job's first step. */
export const findWatchExpiry = (db: Client, id: number) =>
  db.priceWatch.findUnique({ where: { id }, select: { status: true, expiresAt: true } });

/** The person's live watches (which items, how many; an any-of group's alternatives carry its id). */
export const findLiveWatches = (tx: Tx, personId: string) =>
  tx.priceWatch.findMany({
    where: { personId, status: { in: [...liveWatchStatuses] } },
    select: { id: true, itemId: true, groupId: true },
  });

/** Writes an active watch; the row as the wire shows it. */
export const insertWatch = (
  tx: Tx,
  watch: {
    personId: string;
    clientId: string;
    itemId: number;
    size: string | null;
    maxPriceCents: number;
    maxTotalCents: number;
    dropPercent?: number | null;
    expiresAt: Date;
    now: Date;
    /** The any-of group it is an alternative of (POST /price-watch-groups). */
    groupId?: string;
  },
): Promise<WatchRow> => {
  const { now, ...data } = watch;
  return tx.priceWatch.create({
    data: { ...data, createdAt: now, updatedAt: now },
    select: watchSelect,
  });
};

/** The active watches of a person and/or a client, oldest first (whose standing a change may take away); a group's alternatives end with their group (groups/). */
export const findActiveWatchesOf = (tx: Tx, where: { personId?: string; clientId?: string }) =>
  tx.priceWatch.findMany({
    where: { ...where, status: "active", groupId: null },
    select: { id: true, clientId: true, personId: true, maxTotalCents: true },
    orderBy: { id: "asc" },
  });

/** The persons of the executing watches of a person and/or a client. */
export const findExecutingPersons = async (
  tx: Tx,
  where: { personId?: string; clientId?: string },
) => {
  const claimed = await tx.priceWatch.findMany({
    where: { ...where, status: "executing" },
    select: { personId: true },
  });
  return [...new Set(claimed.map((watch) => watch.personId))];
};

/** Ids of active watches whose expires_at has passed, soonest first, a batch at a time. */
export const findDueWatchIds = async (sql: Sql, options: { now: Date; batch: number }) =>
  (
    await sql.$queryRaw<{ id: number }[]>`
      SELECT id FROM price_watches WHERE status = 'active' AND expires_at <= ${options.now}
      ORDER BY expires_at LIMIT ${options.batch}`
  ).map((watch) => watch.id);

/** Executing watches claimed at or before `before`, oldest claim first (at most 100). */
export const findStaleExecutingWatches = (db: Client, before: Date) =>
  db.priceWatch.findMany({
    where: { status: "executing", claimedAt: { lte: before } },
    orderBy: { claimedAt: "asc" },
    take: 100,
    select: { id: true, purchaseId: true, quoteId: true },
  });

/**
 * Takes a stale executing watch for this run: moving claimed_at forward is the lease (a second
 * instance finds it moved and skips it). True when this call took it.
 */
export const leaseExecutingWatch = async (
  db: Client,
  options: { id: number; before: Date; now: Date },
) =>
  (
    await db.priceWatch.updateMany({
      where: { id: options.id, status: "executing", claimedAt: { lte: options.before } },
      data: { claimedAt: options.now },
    })
  ).count > 0;
