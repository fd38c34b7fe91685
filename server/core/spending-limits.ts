/**
 * A person's spending settings for assistant purchases, and the rule that reads them before any
 * purchase: no limits set, or purchases paused, refuses the purchase. Pure; the database row is
 * read by `readSpendingSettings` (server/accounts/store/persons.ts).
 */
import type { Cents } from "./money";

/** The largest limit a person may set, per order and per rolling 30 days: $50,000.00. */
export const maxSpendingLimitCents: Cents = 5_000_000;

export type SpendingSettings = {
  /** Null until the person sets limits. */
  limitPerOrderCents: Cents | null;
  limitPer30DaysCents: Cents | null;
  isPaused: boolean;
  pausedChangedAt: Date | null;
};

/** Why an assistant purchase may not start at all, before any amount is considered; null when it may. */
export type SpendingRefusal = "spending_limit_not_set" | "purchases_paused";

/**
 * The refusal a purchase meets before its amount is checked: limits must both be set (otherwise
 * `spending_limit_not_set`), and purchases must not be paused (`purchases_paused`).
 */
export const purchaseRefusal = (settings: SpendingSettings): SpendingRefusal | null => {
  if (settings.limitPerOrderCents === null || settings.limitPer30DaysCents === null)
    return "spending_limit_not_set";
  if (settings.isPaused) return "purchases_paused";
  return null;
};
