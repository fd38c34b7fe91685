/**
 * How much a person's assistants may still spend on one order: the lesser of the per-order limit
 * and what the 30-day limit has left after the purchases of the last 30 days that hold or took
 * money. POST /purchases checks a total against it under the person's row lock; POST
 * /price-watches checks max_total against it when the watch is set. Both first read the settings
 * with `spendingSettingsAllowingPurchase`.
 */
import type { Tx } from "../db";
import { purchaseRefusal } from "../domain/spending-limits";
import { AppError } from "../errors";
import { readSpendingSettings } from "../routers/account/spending.queries";

const thirtyDaysMs = 30 * 24 * 3_600_000;
/** Statuses whose amount counts toward the 30-day limit. */
const spendingStatuses = ["processing", "held", "capturing", "paid"] as const;

export type SpendingRoom = { perOrderCents: number; per30DaysCents: number; room30DaysCents: number; roomCents: number };

export const spendingRoom = async (db: Pick<Tx, "purchase">, options: { personId: string; perOrderCents: number; per30DaysCents: number; now: Date }): Promise<SpendingRoom> => {
  const spent = await db.purchase.aggregate({
    where: { personId: options.personId, status: { in: [...spendingStatuses] }, createdAt: { gt: new Date(options.now.getTime() - thirtyDaysMs) } },
    _sum: { grandTotalCents: true },
  });
  const room30DaysCents = Math.max(0, options.per30DaysCents - (spent._sum.grandTotalCents ?? 0));
  return { perOrderCents: options.perOrderCents, per30DaysCents: options.per30DaysCents, room30DaysCents, roomCents: Math.min(options.perOrderCents, room30DaysCents) };
};

/** The over_spending_limit details when `totalCents` does not fit the room; null when it does. */
export const overSpendingLimit = (totalCents: number, room: SpendingRoom) => {
  if (totalCents <= room.roomCents) return null;
  const overPerOrder = totalCents > room.perOrderCents;
  return {
    limitCents: overPerOrder ? room.perOrderCents : room.per30DaysCents,
    roomCents: room.roomCents,
    message: overPerOrder ? "The total is over the person's limit per order." : "The total is over what the person's 30-day limit has left.",
  };
};

/**
 * The person's spending settings when they allow an assistant purchase (limits set, not paused);
 * purchases_paused or spending_limit_not_set otherwise (409 where every refusal is, as POST /price-watches).
 */
export const spendingSettingsAllowingPurchase = async (db: Pick<Tx, "person">, personId: string, options: { status?: 409 } = {}) => {
  const settings = await readSpendingSettings(db, personId);
  const refusal = settings ? purchaseRefusal(settings) : "spending_limit_not_set";
  if (refusal) {
    throw new AppError(refusal, { message: refusal === "purchases_paused" ? "The person paused assistant purchases." : "The person has not set spending limits.", status: options.status });
  }
  return settings!;
};
