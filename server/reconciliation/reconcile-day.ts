/**
 * The daily reconciliation (docs/adr/0108): one UTC day of our records (captures, refunds,
 * transfers, reversals, disputes) against the processor's balance transactions, matched one to one by the
 * processor's ids we recorded, every difference written to the day's report and raised as an
 * operator alert. Run for each past day without a report (the sweep's `reconcile-days` and the
 * Inngest cron), or for a given day (`ops reconcile:report --date D --run`).
 */
import type { Db } from "../platform/db";
import type { PaymentProvider } from "../payments";
import { compareMovements, type Movement, utcDay } from "./policy";
import { readOurMovements, reportedDays, saveReport } from "./store";
import { logger } from "../platform/observability/log";

/** Around the day: a movement recorded on one side just before midnight may be the other's next day. */
const marginMs = 3_600_000;
/** How many past days the job looks back for one without a report. */
const lookBackDays = 7;

export const reconcileDay = async (db: Db, provider: PaymentProvider, day: Date) => {
  const { from, to } = utcDay(day);
  const wide = { from: new Date(from.getTime() - marginMs), to: new Date(to.getTime() + marginMs) };
  const [ours, listed] = await Promise.all([
    readOurMovements(db, wide.from, wide.to),
    provider.listBalanceTransactions(wide),
  ]);
  const theirs: Movement[] = listed.flatMap((transaction) =>
    transaction.type === "other"
      ? []
      : [
          {
            type: transaction.type,
            objectId: transaction.objectId,
            amountCents: transaction.amountCents,
            at: transaction.createdAt,
          },
        ],
  );
  const compared = compareMovements(ours, theirs, { from, to });
  const report = await saveReport(db, { day: from, ...compared });
  if (report.status === "differences") raiseAlert(report.day, compared.differences.length);
  return report;
};

/** The operator's alert: one log line (level error, `alert` field) an alerting rule matches (docs/adr/0108), and the report. */
const raiseAlert = (day: Date, count: number) =>
  logger.error(
    {
      alert: "reconciliation_differences",
      day: day.toISOString().slice(0, 10),
      differences: count,
      see: `npm run ops -- reconcile:report --date ${day.toISOString().slice(0, 10)}`,
    },
    "reconciliation found differences",
  );

/** Every day of the last week that ended more than the margin ago and has no report yet. */
export const reconcilePastDays = async (
  db: Db,
  options: { now: Date; provider: PaymentProvider },
) => {
  const today = utcDay(options.now).from;
  const days = Array.from(
    { length: lookBackDays },
    (_, index) => new Date(today.getTime() - (index + 1) * 86_400_000),
  ).filter((day) => day.getTime() + 86_400_000 + marginMs <= options.now.getTime());
  const done = await reportedDays(db, days);
  const due = days.filter((day) => !done.has(day.getTime())).reverse();
  for (const day of due) await reconcileDay(db, options.provider, day);
  return due.length;
};
