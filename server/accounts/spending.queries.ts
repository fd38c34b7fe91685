/**
 * The person's spending settings as stored, for the dashboard procedures and, later, for assistant
 * purchases (which call `readSpendingSettings` and then `purchaseRefusal` from the domain).
 */
import type { Db } from "../platform/db";
import { Prisma } from "../generated/prisma/client";
import { toMoney } from "../core/money";
import type { SpendingSettings } from "../core/spending-limits";
import type { TSpendingSettingsResponse } from "./account.schema";

export const spendingSettingsSelect = {
  spendingLimitPerOrderCents: true,
  spendingLimitPer30DaysCents: true,
  purchasesPaused: true,
  purchasesPausedChangedAt: true,
} as const;

export type SpendingRow = {
  spendingLimitPerOrderCents: number | null;
  spendingLimitPer30DaysCents: number | null;
  purchasesPaused: boolean;
  purchasesPausedChangedAt: Date | null;
};

/** The SpendingRow columns of the persons row aliased `p`, for raw statements (the purchase's locked read, a watch's standing). */
export const spendingColumnsSql = Prisma.sql`p.spending_limit_per_order_cents AS "spendingLimitPerOrderCents", p.spending_limit_per_30_days_cents AS "spendingLimitPer30DaysCents",
  p.purchases_paused AS "purchasesPaused", p.purchases_paused_changed_at AS "purchasesPausedChangedAt"`;

export const spendingSettingsOf = (row: SpendingRow): SpendingSettings => ({
  limitPerOrderCents: row.spendingLimitPerOrderCents,
  limitPer30DaysCents: row.spendingLimitPer30DaysCents,
  isPaused: row.purchasesPaused,
  pausedChangedAt: row.purchasesPausedChangedAt,
});

/** The person's limits and pause switch; undefined when the person does not exist. Pass a transaction to read under its locks. */
export const readSpendingSettings = async (
  db: Pick<Db, "person">,
  personId: string,
): Promise<SpendingSettings | undefined> => {
  const row = await db.person.findUnique({
    where: { id: personId },
    select: spendingSettingsSelect,
  });
  return row ? spendingSettingsOf(row) : undefined;
};

/** Settings → the wire shape (Money strings, ISO instant). */
export const toSpendingSettingsResponse = (
  settings: SpendingSettings,
): TSpendingSettingsResponse => ({
  limit_per_order:
    settings.limitPerOrderCents === null ? null : toMoney(settings.limitPerOrderCents),
  limit_per_30_days:
    settings.limitPer30DaysCents === null ? null : toMoney(settings.limitPer30DaysCents),
  purchases_paused: settings.isPaused,
  paused_changed_at: settings.pausedChangedAt?.toISOString() ?? null,
});

/** The same from a row the caller already selected with `spendingSettingsSelect`. */
export const rowToSpendingSettingsResponse = (row: SpendingRow) =>
  toSpendingSettingsResponse(spendingSettingsOf(row));
