/**
 * The any-of groups' store: the `price_watch_groups` rows (price-watches' table) and the reads of
 * their alternatives (`price_watches` rows with group_id). The moves are raw SQL (typed `Sql`) so
 * they run in the evaluator's `pg` transactions and in the Prisma transactions of the person's
 * changes alike (as store/moves.ts); the reads for the API are Prisma.
 */
import { Prisma } from "../../generated/prisma/client";
import type { Db, Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import { watchSelect, type WatchRow } from "../store/watches";
import type { GroupState } from "./group-states";

type Client = Db | Tx;

/** A group's own row as the API and the writer read it. */
export type GroupRow = {
  id: string;
  personId: string;
  clientId: string;
  maxTotalCents: number;
  status: GroupState;
  outcome: string | null;
  claimedWatchId: number | null;
  purchaseId: string | null;
  expiresAt: Date;
  createdAt: Date;
};

const groupSelect = {
  id: true,
  personId: true,
  clientId: true,
  maxTotalCents: true,
  status: true,
  outcome: true,
  claimedWatchId: true,
  purchaseId: true,
  expiresAt: true,
  createdAt: true,
} as const;

/** A group with its alternatives (watch rows, oldest first). */
export type GroupWithAlternatives = GroupRow & { alternatives: WatchRow[] };

const withAlternatives = {
  ...groupSelect,
  alternatives: { select: watchSelect, orderBy: { id: "asc" } },
} as const;

/** Writes an active group (its alternatives are written after it, with its id). */
export const insertGroup = (
  tx: Tx,
  group: {
    id: string;
    personId: string;
    clientId: string;
    maxTotalCents: number;
    expiresAt: Date;
    now: Date;
  },
) => {
  const { now, ...data } = group;
  return tx.priceWatchGroup.create({
    data: { ...data, createdAt: now, updatedAt: now },
    select: { id: true },
  });
};

/** The person's group with its alternatives (null when it is not theirs, or none). */
export const findPersonGroup = (
  db: Client,
  personId: string,
  id: string,
): Promise<GroupWithAlternatives | null> =>
  db.priceWatchGroup.findFirst({ where: { id, personId }, select: withAlternatives });

/** A page of the person's groups with their alternatives, newest first, and how many they have. */
export const listPersonGroups = async (
  db: Client,
  { personId, page, pageSize }: { personId: string; page: number; pageSize: number },
) => {
  const [rows, total] = await Promise.all([
    db.priceWatchGroup.findMany({
      where: { personId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: withAlternatives,
    }),
    db.priceWatchGroup.count({ where: { personId } }),
  ]);
  return { rows: rows as GroupWithAlternatives[], total };
};

/** The group of an alternative (undefined when the watch is in none). */
export const findGroupIdOfWatch = async (sql: Sql, watchId: number) => {
  const [row] = await sql.$queryRaw<{ groupId: string | null }[]>`
    SELECT group_id AS "groupId" FROM price_watches WHERE id = ${watchId}`;
  return row?.groupId ?? undefined;
};

/**
 * Locks the group of an alternative (FOR UPDATE) in the caller's transaction, before the
 * alternative's own move: every transaction that moves a group and its alternatives takes the group
 * row first, so two of them never wait on each other in opposite orders.
 */
export const lockGroupOfWatch = (sql: Sql, watchId: number) =>
  sql.$queryRaw<{ id: string }[]>`
    SELECT g.id FROM price_watch_groups g JOIN price_watches w ON w.group_id = g.id
    WHERE w.id = ${watchId} FOR UPDATE OF g`;

/** What settling a group reads, under its row lock: the group and its alternatives' states. */
export const lockGroupWithAlternatives = async (sql: Sql, groupId: string) => {
  const [group] = await sql.$queryRaw<
    { id: string; status: GroupState; claimedWatchId: number | null }[]
  >`
    SELECT id, status::text AS status, claimed_watch_id AS "claimedWatchId"
    FROM price_watch_groups WHERE id = ${groupId} FOR UPDATE`;
  if (!group) return undefined;
  const alternatives = await readAlternatives(sql, groupId);
  return { ...group, alternatives };
};

/** An alternative as the group's moves read it. */
export type AlternativeState = {
  id: number;
  status: string;
  outcome: string | null;
  overTotal: boolean;
  purchaseId: string | null;
};

/** A group's alternatives, the last to end first, then the live ones in id order. */
export const readAlternatives = (sql: Sql, groupId: string) =>
  sql.$queryRaw<AlternativeState[]>`
    SELECT id, status::text AS status, outcome, over_total AS "overTotal", purchase_id AS "purchaseId"
    FROM price_watches WHERE group_id = ${groupId} ORDER BY ended_at DESC NULLS LAST, id`;

/** A moved group as the statement returns it, with the person's email. */
export type MovedGroup = GroupRow & { email: string };

/**
 * One conditional UPDATE of a group: from one of `from` (and, for claim and expiry, its time) to
 * `to`; the moved row, or undefined when it had moved on. The state table decides every argument.
 */
export const updateGroupStatus = async (
  sql: Sql,
  id: string,
  move: {
    from: readonly GroupState[];
    to: GroupState;
    outcome: string | null;
    isFinal: boolean;
    needsUnexpired: boolean;
    needsExpired: boolean;
    now: Date;
    /** claimed_watch_id and claimed_at: set by a claim, cleared by a release, else kept. */
    claim?: { watchId: number | null };
    purchaseId?: string;
    /** Moves an executing group only when this alternative is the one it claimed (an end asked for by another alternative leaves a purchase under way alone). */
    byAlternative?: number;
  },
) => {
  const { now } = move;
  const claimSet = move.claim
    ? Prisma.sql`claimed_watch_id = ${move.claim.watchId}::int, claimed_at = ${move.claim.watchId === null ? null : now}::timestamptz`
    : Prisma.sql`claimed_watch_id = g.claimed_watch_id`;
  const [moved] = await sql.$queryRaw<MovedGroup[]>`
    UPDATE price_watch_groups g SET status = ${move.to}::"PriceWatchGroupStatus", outcome = ${move.outcome},
      ended_at = ${move.isFinal ? now : null}::timestamptz, updated_at = ${now}, ${claimSet},
      purchase_id = COALESCE(${move.purchaseId ?? null}::text, g.purchase_id)
    FROM persons p
    WHERE g.id = ${id} AND p.id = g.person_id AND g.status::text = ANY(${move.from}::text[])
      AND (NOT ${move.needsUnexpired} OR g.expires_at > ${now}) AND (NOT ${move.needsExpired} OR g.expires_at <= ${now})
      AND (${move.byAlternative ?? null}::int IS NULL OR g.status <> 'executing' OR g.claimed_watch_id = ${move.byAlternative ?? null}::int)
    RETURNING g.id, g.person_id AS "personId", g.client_id AS "clientId", g.max_total_cents AS "maxTotalCents",
      g.status::text AS status, g.outcome, g.claimed_watch_id AS "claimedWatchId", g.purchase_id AS "purchaseId",
      g.expires_at AS "expiresAt", g.created_at AS "createdAt", p.email`;
  return moved;
};

/**
 * The live groups of a person and/or a client whose standing a change may take away: the active
 * ones, and the executing ones whose claimed alternative's purchase does not exist (the caller holds
 * the persons' row locks; whether the purchase exists reads `purchases`, borrowed as store/evaluation.ts does).
 */
export const findGroupsToWithdraw = (tx: Tx, where: { personId?: string; clientId?: string }) =>
  tx.$queryRaw<{ id: string; clientId: string; personId: string; maxTotalCents: number }[]>`
    SELECT g.id, g.client_id AS "clientId", g.person_id AS "personId", g.max_total_cents AS "maxTotalCents"
    FROM price_watch_groups g LEFT JOIN price_watches w ON w.id = g.claimed_watch_id
    WHERE (${where.personId ?? null}::text IS NULL OR g.person_id = ${where.personId ?? null}::text)
      AND (${where.clientId ?? null}::text IS NULL OR g.client_id = ${where.clientId ?? null}::text)
      AND (g.status = 'active' OR (g.status = 'executing' AND w.purchase_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.quote_id = w.quote_id)))
    ORDER BY g.created_at, g.id`;

/** The persons of the executing groups of a person and/or a client. */
export const findExecutingGroupPersons = async (
  tx: Tx,
  where: { personId?: string; clientId?: string },
) => {
  const groups = await tx.priceWatchGroup.findMany({
    where: { ...where, status: "executing" },
    select: { personId: true },
  });
  return [...new Set(groups.map((group) => group.personId))];
};

/**
 * Groups whose row disagrees with their alternatives, for the recovery sweep: executing since
 * `before` while the claimed alternative is no longer executing, or active with no live alternative
 * (a crash between an alternative's move and its group's); at most 100.
 */
export const findUnsettledGroupIds = async (sql: Sql, before: Date) =>
  (
    await sql.$queryRaw<{ id: string }[]>`
      SELECT g.id FROM price_watch_groups g
      WHERE (g.status = 'executing' AND g.claimed_at <= ${before}
          AND NOT EXISTS (SELECT 1 FROM price_watches w WHERE w.id = g.claimed_watch_id AND w.status = 'executing'))
        OR (g.status = 'active' AND g.updated_at <= ${before}
          AND NOT EXISTS (SELECT 1 FROM price_watches w WHERE w.group_id = g.id AND w.status IN ('active', 'executing')))
      ORDER BY g.updated_at LIMIT 100`
  ).map((row) => row.id);

/** Active groups whose expires_at has passed, a batch at a time. */
export const findDueGroupIds = async (sql: Sql, options: { now: Date; batch: number }) =>
  (
    await sql.$queryRaw<{ id: string }[]>`
      SELECT id FROM price_watch_groups WHERE status = 'active' AND expires_at <= ${options.now}
      ORDER BY expires_at LIMIT ${options.batch}`
  ).map((row) => row.id);

/** A group's alternatives' items and sizes, in id order (its emails show them). */
export const readAlternativeItems = (sql: Sql, groupId: string) =>
  sql.$queryRaw<{ id: number; itemId: number; size: string | null; maxPriceCents: number }[]>`
    SELECT id, item_id AS "itemId", size, max_price_cents AS "maxPriceCents"
    FROM price_watches WHERE group_id = ${groupId} ORDER BY id`;

/** A group's status (it exists). */
export const readGroupStatus = async (db: Client, id: string): Promise<GroupState> =>
  (await db.priceWatchGroup.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
