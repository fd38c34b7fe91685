/**
 * Price-alerts store: the `price_alerts` table. Prisma for setting, listing and stopping (one person's
 * few rows, nothing hot). Raw SQL (typed `Sql`) for firing: a sale runs it for each of thousands of
 * items in a raw `pg` transaction, most notifying nobody, so it is one statement that reads the
 * item's live price and store and the person's email with the move (ADR 0074; ADR 0103 keeps that
 * join across owners, "Joins kept").
 */
import { storeCanSellSql } from "../core/store-can-sell";
import { Prisma } from "../generated/prisma/client";
import type { Db, Tx } from "../platform/db";
import type { Sql } from "../platform/sql";

const alertSelect = {
  id: true,
  status: true,
  itemId: true,
  targetPriceCents: true,
  dropPercent: true,
  notifiedPriceCents: true,
  createdAt: true,
  notifiedAt: true,
  stoppedAt: true,
} as const;

export type AlertRow = Prisma.PriceAlertGetPayload<{ select: typeof alertSelect }>;

/**
 * Locks the person's row until the transaction ends, so two alerts of one person are set one after
 * the other. The persons table is accounts': held here until its store offers the lock (ADR 0103,
 * "Still crossing").
 */
export const lockPerson = (tx: Tx, personId: string) =>
  tx.$queryRaw`SELECT id FROM persons WHERE id = ${personId} FOR UPDATE`;

/** The person's live alerts (which items, how many). */
export const findLiveAlerts = (tx: Tx, personId: string) =>
  tx.priceAlert.findMany({
    where: { personId, status: "active" },
    select: { id: true, itemId: true },
  });

/** Writes a live alert; returns its id. */
export const insertAlert = async (
  tx: Tx,
  alert: {
    id: string;
    personId: string;
    clientId: string;
    itemId: number;
    targetPriceCents: number;
    dropPercent: number | null;
    createdAt: Date;
  },
) => (await tx.priceAlert.create({ data: alert, select: { id: true } })).id;

/** One alert (it exists: just written). */
export const readAlert = (db: Db, id: string): Promise<AlertRow> =>
  db.priceAlert.findUniqueOrThrow({ where: { id }, select: alertSelect });

/** The person's alert `id` (null when it is not theirs, or none). */
export const findPersonAlert = (db: Db, personId: string, id: string) =>
  db.priceAlert.findFirst({ where: { id, personId }, select: alertSelect });

/** A page of the person's alerts, newest first, and how many they have. */
export const listPersonAlerts = async (
  db: Db,
  personId: string,
  page: { skip: number; take: number },
) => {
  const [rows, total] = await Promise.all([
    db.priceAlert.findMany({
      where: { personId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.take,
      select: alertSelect,
    }),
    db.priceAlert.count({ where: { personId } }),
  ]);
  return { rows, total };
};

/** Stops the person's alert if it is live (an ended one stays as it is). */
export const stopLiveAlert = (db: Db, options: { personId: string; id: string; now: Date }) =>
  db.priceAlert.updateMany({
    where: { id: options.id, personId: options.personId, status: "active" },
    data: { status: "stopped", stoppedAt: options.now },
  });

export type FiredAlert = {
  id: string;
  email: string;
  person_id: string;
  /** The live price the alert fired at. */
  price_cents: number;
  target_price_cents: number;
};

/** The item's live price, when it is active and its store can sell now (no row otherwise). */
const liveItemSql = (itemId: number) => Prisma.sql`
  SELECT i.id, i.price_cents FROM items i JOIN stores s ON s.id = i.store_id
  WHERE i.id = ${itemId} AND i.status = 'active' AND ${Prisma.raw(storeCanSellSql("s"))}`;

/** An alert `a` of the item (`item`, liveItemSql) that its live price has reached: the one rule of firing. */
const firesAtSql = Prisma.sql`a.item_id = item.id AND a.status = 'active' AND a.target_price_cents >= item.price_cents`;

/**
 * Moves to `notified` every active alert on the item whose target its live price has reached (the
 * item active and its store selling), with what its email needs. A single UPDATE ... WHERE status =
 * 'active': of two transactions racing for one alert the second waits on the row lock, re-reads it
 * as `notified` and skips it, so only the winner's RETURNING row gets an email (the item's card,
 * read once after it, is the same for all of them).
 */
export const fireAlertsAtLivePrice = (sql: Sql, itemId: number, now: Date) =>
  sql.$queryRaw<FiredAlert[]>`
    WITH item AS (${liveItemSql(itemId)})
    UPDATE price_alerts a SET status = 'notified', notified_at = ${now}, notified_price_cents = item.price_cents, updated_at = ${now}
    FROM item, persons p
    WHERE ${firesAtSql} AND p.id = a.person_id
    RETURNING a.id, p.email, a.person_id, item.price_cents, a.target_price_cents`;

/**
 * Whether `fireAlertsAtLivePrice` would move an alert of the item now: one read, no transaction, for
 * the price changes that notify nobody (most of a sale's). A change after it has its own event.
 */
export const anyAlertFiresAtLivePrice = async (sql: Sql, itemId: number) =>
  (
    await sql.$queryRaw<{ fires: boolean }[]>`
      WITH item AS (${liveItemSql(itemId)})
      SELECT EXISTS (SELECT 1 FROM price_alerts a, item WHERE ${firesAtSql}) AS fires`
  )[0].fires;

/**
 * Stops every live alert on the item if the item is sold (read live, not from the event): its price
 * can no longer reach anyone's target. `stopped` is the alert's one ending without an email (ADR
 * 0075); a single UPDATE ... WHERE status = 'active', so two runs stop each alert once.
 */
export const stopAlertsOfSoldItem = (sql: Sql, itemId: number, now: Date) =>
  sql.$executeRaw`
    UPDATE price_alerts a SET status = 'stopped', stopped_at = ${now}, updated_at = ${now}
    FROM items i
    WHERE i.id = ${itemId} AND i.status = 'sold' AND a.item_id = i.id AND a.status = 'active'`;
