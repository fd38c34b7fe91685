/**
 * The daily reconciliation with an Inngest server: at 01:30 UTC, each past day of the last week
 * without a report (the sweep's `reconcile-days` does the same without Inngest). Idempotent: a
 * day with a report is not run again; one run again replaces its report.
 */
import { systemClock } from "../platform/clock";
import { db } from "../platform/db";
import { inngest } from "../platform/jobs/client";
import { paymentProvider } from "../payments";
import { reconcilePastDays } from "./reconcile-day";

export const reconcileDays = inngest.createFunction(
  { id: "reconcile-days", triggers: [{ cron: "30 1 * * *" }], concurrency: { limit: 1 } },
  async ({ step }) =>
    step.run("reconcile-past-days", () =>
      reconcilePastDays(db(), { now: systemClock.now(), provider: paymentProvider() }),
    ),
);
