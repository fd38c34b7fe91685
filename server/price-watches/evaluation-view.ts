/** A price_watch_evaluations row → the wire's PriceWatchEvaluation (Money, ISO instants). */
import { toMoney } from "../core/money";
import type { EvaluationRow } from "./store/evaluations";

export const toWireEvaluation = (row: EvaluationRow) => ({
  evaluated_at: row.evaluatedAt.toISOString(),
  price: toMoney(row.priceCents),
  total: row.totalCents === null ? null : toMoney(row.totalCents),
  outcome: row.outcome as "bought" | "not_bought" | "needs_you" | "ended",
  failed_condition: row.failedCondition,
});
