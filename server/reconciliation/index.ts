/** Reconciliation: our ledger against the processor's balance transactions, a day at a time (docs/adr/0108). */
export { reconcileDay, reconcilePastDays } from "./reconcile-day";
export { reconcileDays } from "./reconcile-days-job";
export { findReport } from "./store";
export type { Report } from "./store";
