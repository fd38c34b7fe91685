/**
 * Price-watches store: `price_watch_evaluations`, one row per evaluation of a live watch (GET
 * /price-watches/{id}/evaluations, the dashboard's last evaluation). Raw SQL on the sale path (a
 * sale evaluates thousands of watches): a row is written by the statement the evaluation already
 * makes where there is one (the over-total mark, the read of the item's watches), else by one
 * INSERT (ADR 0116). Prisma for the person's reads.
 */
import { Prisma } from "../../generated/prisma/client";
import type { Db } from "../../platform/db";
import { anyOf, type Sql } from "../../platform/sql";

/** What an evaluation ended in: it bought, did not (the watch stays live), needs the person, or ended the watch. */
export type EvaluationOutcome = "bought" | "not_bought" | "needs_you" | "ended";

export type EvaluationRecord = {
  priceCents: number;
  /** The quote's total to the saved address, when a quote was made. */
  totalCents: number | null;
  outcome: EvaluationOutcome;
  /** The first condition that failed (conditions.ts), or null when it bought. */
  failedCondition: string | null;
};

/** One evaluation row for each of `ids` (the same record for each: a bulk end, one statement). */
export const insertEvaluations = (
  sql: Sql,
  ids: readonly number[],
  record: EvaluationRecord,
  now: Date,
) =>
  sql.$executeRaw`
    INSERT INTO price_watch_evaluations (watch_id, evaluated_at, price_cents, total_cents, outcome, failed_condition)
    SELECT w.id, ${now}, ${record.priceCents}, ${record.totalCents}::int, ${record.outcome}, ${record.failedCondition}::text
    FROM price_watches w WHERE ${anyOf(Prisma.sql`w.id`, ids, "int")}`;

/**
 * Marks (or clears) "last seen over its total" on an active watch and records the evaluation, in
 * one statement (expiring then ends it over_your_total).
 */
export const setOverTotalRecording = (
  sql: Sql,
  id: number,
  overTotal: boolean,
  record: EvaluationRecord,
  now: Date,
) =>
  sql.$executeRaw`
    WITH marked AS (
      UPDATE price_watches SET over_total = ${overTotal} WHERE id = ${id} AND status = 'active' AND over_total <> ${overTotal})
    INSERT INTO price_watch_evaluations (watch_id, evaluated_at, price_cents, total_cents, outcome, failed_condition)
    VALUES (${id}, ${now}, ${record.priceCents}, ${record.totalCents}::int, ${record.outcome}, ${record.failedCondition}::text)`;

/**
 * The part of the read of an item's watches (store/evaluation.ts `readItemWatches`) that records
 * the evaluation of every live watch whose max_price the price is over and that has nothing else to
 * do (not marked over its total, not expired): not_bought, max_price. A CTE of that read, so those
 * watches cost no statement of their own.
 */
export const recordOverPriceSql = (itemId: number, now: Date) => Prisma.sql`
  WITH over_price AS (
    INSERT INTO price_watch_evaluations (watch_id, evaluated_at, price_cents, total_cents, outcome, failed_condition)
    SELECT w.id, ${now}, i.price_cents, NULL, 'not_bought', 'max_price'
    FROM price_watches w JOIN items i ON i.id = w.item_id
    WHERE w.item_id = ${itemId} AND w.status = 'active' AND i.status = 'active' AND w.max_price_cents < i.price_cents
      AND NOT w.over_total AND w.expires_at > ${now})`;

const evaluationSelect = {
  id: true,
  evaluatedAt: true,
  priceCents: true,
  totalCents: true,
  outcome: true,
  failedCondition: true,
} as const;

export type EvaluationRow = Prisma.PriceWatchEvaluationGetPayload<{
  select: typeof evaluationSelect;
}>;

/** A page of a watch's evaluations, newest first, and how many it has. */
export const listWatchEvaluations = async (
  db: Db,
  watchId: number,
  page: { skip: number; take: number },
) => {
  const [rows, total] = await Promise.all([
    db.priceWatchEvaluation.findMany({
      where: { watchId },
      orderBy: [{ evaluatedAt: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.take,
      select: evaluationSelect,
    }),
    db.priceWatchEvaluation.count({ where: { watchId } }),
  ]);
  return { rows, total };
};

/** The last evaluation of each of these watches (those evaluated), one statement. */
export const findLastEvaluations = async (db: Db, watchIds: readonly number[]) => {
  if (watchIds.length === 0) return new Map<number, EvaluationRow>();
  const rows = await db.$queryRaw<(EvaluationRow & { watchId: number })[]>`
    SELECT DISTINCT ON (watch_id) watch_id AS "watchId", id, evaluated_at AS "evaluatedAt", price_cents AS "priceCents",
      total_cents AS "totalCents", outcome, failed_condition AS "failedCondition"
    FROM price_watch_evaluations WHERE watch_id = ANY(${watchIds}::int[])
    ORDER BY watch_id, evaluated_at DESC, id DESC`;
  return new Map(rows.map(({ watchId, ...row }) => [watchId, row]));
};
