/**
 * `reconcile:report --date YYYY-MM-DD [--run]`: the day's reconciliation with the processor
 * (docs/adr/0108): clean, or each difference (missing at the processor, missing in our ledger, an
 * amount that differs) with both ids and amounts. `--run` reconciles the day now (again).
 */
import { z } from "zod";
import { formatCents } from "../../core/money";
import { db } from "../../platform/db";
import { paymentProvider } from "../../payments";
import { findReport, reconcileDay, type Report } from "../../reconciliation";
import { fail } from "./commands";

const ZDay = z
  .string({ error: "--date is required (YYYY-MM-DD)" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "--date must be a date (YYYY-MM-DD)")
  .transform((day) => new Date(`${day}T00:00:00.000Z`))
  .refine((date) => !Number.isNaN(date.getTime()), "--date must be a real date");

const cents = (value: number | null) => (value === null ? null : formatCents(value));

const shown = (report: Report) => ({
  date: report.day.toISOString().slice(0, 10),
  status: report.status,
  ours: report.ours,
  processors: report.processors,
  matched: report.matched,
  differences: report.differences.map((difference) => ({
    kind: difference.kind,
    type: difference.objectType,
    processor_id: difference.processorId,
    our_id: difference.ourId,
    ours: cents(difference.ourAmountCents),
    processors: cents(difference.processorAmountCents),
  })),
  reconciled_at: report.createdAt.toISOString(),
});

export const reconcileReportCommand = async (input: { date?: string; run?: boolean }) => {
  const parsed = ZDay.safeParse(input.date);
  if (!parsed.success) fail(parsed.error.issues[0].message);
  const day = parsed.data!;
  if (input.run) await reconcileDay(db(), paymentProvider(), day);
  const report = await findReport(db(), day);
  if (!report)
    fail(
      `no reconciliation of ${input.date} yet (the job runs each day after 01:00 UTC; --run reconciles it now)`,
    );
  return shown(report!);
};
