/**
 * Recording an evaluation of a live watch (price_watch_evaluations, ADR 0116): what it saw (the
 * price, the quote's total when one was made), what it ended in, and the first condition that
 * failed (conditions.ts). Written by the statement the evaluation already makes where it has one
 * (the over-total mark; the read of the item's watches for those over max_price), in the
 * transaction that records the bank's answer when it bought, else by one INSERT right after its move.
 */
import { poolSql, type Sql } from "../platform/sql";
import type { Stop, purchaseRecord } from "./policy";
import { conditionOfRefusal } from "./conditions";
import { outcomeOfPurchaseRefusal } from "./states";
import {
  type EvaluationRecord,
  insertEvaluations,
  setOverTotalRecording,
} from "./store/evaluations";

/** What an evaluation saw: the price, and the total of its quote (null without one). */
export type Seen = { priceCents: number; totalCents: number | null };

/** Records one evaluation of each of `ids` (none: nothing to record). */
export const recordEvaluation = async (
  ids: readonly number[],
  record: EvaluationRecord,
  now: Date,
  sql: Sql = poolSql,
) => {
  if (ids.length) await insertEvaluations(sql, ids, record, now);
};

/**
 * Records an evaluation that stopped before any purchase: not_bought while the watch stays live
 * (the over-total mark and the row in one statement), ended when this evaluation's move ended it
 * (`moved`; another run's move records its own).
 */
export const recordStop = async (id: number, step: Stop, seen: Seen, now: Date, moved: boolean) => {
  if (step.next === "set_over_total")
    return void (await setOverTotalRecording(
      poolSql,
      id,
      step.overTotal,
      { ...seen, outcome: "not_bought", failedCondition: step.failed },
      now,
    ));
  if (step.next === "wait")
    return recordEvaluation(
      [id],
      { ...seen, outcome: "not_bought", failedCondition: step.failed },
      now,
    );
  if (moved)
    await recordEvaluation([id], { ...seen, outcome: "ended", failedCondition: step.failed }, now);
};

/** A refusal of the purchase path as an evaluation: ended when it ends the watch, else not_bought; the condition it stands for. */
export const evaluationOfRefusal = (code: string) =>
  ({
    outcome: outcomeOfPurchaseRefusal(code) ? "ended" : "not_bought",
    failedCondition: conditionOfRefusal(code),
  }) as const;

/** How a purchase's state, recorded on its watch, reads as an evaluation. */
export const evaluationOfRecord = (
  record: ReturnType<typeof purchaseRecord>,
): Pick<EvaluationRecord, "outcome" | "failedCondition"> =>
  ({
    bought: { outcome: "bought", failedCondition: null },
    needs_person: { outcome: "needs_you", failedCondition: "payment" },
    payment_failed: { outcome: "ended", failedCondition: "payment" },
    keep_processing: { outcome: "not_bought", failedCondition: "payment_processing" },
  })[record] as Pick<EvaluationRecord, "outcome" | "failedCondition">;
