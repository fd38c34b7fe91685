/**
 * Reconciliation store: `reconciliation_reports` and `reconciliation_differences` (docs/adr/0108).
 * Joins kept across owners (ADR 0103): a day's own movements are read in one statement from the
 * tables that record them, `payments` (captures), `refunds`, `store_ledger_entries` (transfers
 * and reversals) and `disputes`: the reconciliation is the one reader that must see them all at once.
 */
import { randomId } from "../core/ids";
import { inTransaction, type Db } from "../platform/db";
import type { Difference, Movement } from "./policy";

/** Our movements recorded in [from, to), keyed by the processor's ids. */
export const readOurMovements = (db: Db, from: Date, to: Date) =>
  db.$queryRaw<Movement[]>`
    SELECT 'charge' AS type, processor_payment_id AS "objectId", id AS "ourId", amount_cents AS "amountCents", captured_at AS at
      FROM payments WHERE captured_at >= ${from} AND captured_at < ${to} AND processor_payment_id IS NOT NULL
    UNION ALL
    -- A refund the processor made takes its amount when made, also while it waits at the bank; one
    -- the bank sends back returns it when it fails (docs/adr/0140). A processor's refund recorded
    -- against several orders carries its id and the order after ':'.
    SELECT 'refund', split_part(processor_refund_id, ':', 1), id, amount_cents, created_at
      FROM refunds WHERE processor_refund_id IS NOT NULL AND created_at >= ${from} AND created_at < ${to}
    UNION ALL
    SELECT 'refund', split_part(processor_refund_id, ':', 1) || ':failed', id, amount_cents, failed_at
      FROM refunds WHERE processor_refund_id IS NOT NULL AND failed_at >= ${from} AND failed_at < ${to}
    UNION ALL
    -- A sale's, a won dispute's and a failed refund's shares are transfers; a refund's and a dispute's, reversals.
    SELECT CASE WHEN kind IN ('sale', 'dispute_won', 'refund_failed') THEN 'transfer' ELSE 'transfer_reversal' END, transfer_id, id, abs(net_cents), transferred_at
      FROM store_ledger_entries WHERE transfer_id IS NOT NULL AND transferred_at >= ${from} AND transferred_at < ${to}
    UNION ALL
    -- A dispute takes its amount when opened, and gives it back when won.
    SELECT 'dispute', processor_dispute_id, id, amount_cents, opened_at
      FROM disputes WHERE opened_at >= ${from} AND opened_at < ${to}
    UNION ALL
    SELECT 'dispute', processor_dispute_id || ':reinstated', id, amount_cents, closed_at
      FROM disputes WHERE status = 'won' AND closed_at >= ${from} AND closed_at < ${to}`;

export type ReportInput = {
  day: Date;
  ours: number;
  processors: number;
  matched: number;
  differences: Difference[];
};

/** Writes the day's report, replacing an earlier one of the same day (a day run again). */
export const saveReport = (db: Db, report: ReportInput) =>
  inTransaction(db, async (tx) => {
    await tx.reconciliationReport.deleteMany({ where: { day: report.day } });
    return tx.reconciliationReport.create({
      data: {
        id: randomId("rec_"),
        day: report.day,
        status: report.differences.length ? "differences" : "clean",
        ours: report.ours,
        processors: report.processors,
        matched: report.matched,
        differences: {
          create: report.differences.map((difference) => ({
            id: randomId("recd_"),
            ...difference,
          })),
        },
      },
      include: { differences: true },
    });
  });

export const findReport = (db: Db, day: Date) =>
  db.reconciliationReport.findUnique({
    where: { day },
    include: { differences: { orderBy: [{ kind: "asc" }, { processorId: "asc" }] } },
  });

/** Which of these days have a report already. */
export const reportedDays = async (db: Db, days: Date[]) =>
  new Set(
    (
      await db.reconciliationReport.findMany({
        where: { day: { in: days } },
        select: { day: true },
      })
    ).map((report) => report.day.getTime()),
  );

export type Report = NonNullable<Awaited<ReturnType<typeof findReport>>>;
