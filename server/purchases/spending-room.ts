/**
 * How much a person's assistants may still spend on one order: the lesser of the per-order limit
 * and what the 30-day limit has left after the purchases of the last 30 days that hold or took
 * money. POST /purchases checks a total against it under the person's row lock; POST
 * /price-watches checks max_total against it when the watch is set. Both first read the settings
 * with `spendingSettingsAllowingPurchase`.
 */
import type { Tx } from "../platform/db";
import { purchaseRefusal, type SpendingSettings } from "../core/spending-limits";
import { Prisma } from "../generated/prisma/client";
import type { Sql } from "../platform/sql";
import { AppError } from "../core/errors";
import { readSpendingSettings } from "../accounts";

const thirtyDaysMs = 30 * 24 * 3_600_000;
/** Statuses whose amount counts toward the 30-day limit. */
const spendingStatuses = ["processing", "held", "capturing", "paid"] as const;

export type SpendingRoom = {
  perOrderCents: number;
  per30DaysCents: number;
  room30DaysCents: number;
  roomCents: number;
};
type Limits = { perOrderCents: number; per30DaysCents: number };

/**
 * What the person's purchases of the 30 days before `now` hold or took, in cents (an int
 * expression): the one definition of what counts, also read inside POST /purchases' checks statement.
 */
export const spentIn30DaysSql = (
  personId: string,
  now: Date,
  exceptPurchaseId?: string,
) => Prisma.sql`(
  SELECT COALESCE(SUM(grand_total_cents), 0)::int FROM purchases
  WHERE person_id = ${personId} AND status::text = ANY(${[...spendingStatuses]}::text[]) AND created_at > ${new Date(now.getTime() - thirtyDaysMs)}
    ${exceptPurchaseId ? Prisma.sql`AND id <> ${exceptPurchaseId}` : Prisma.empty})`;

/** The room left by `spentCents` in the last 30 days under both limits. */
export const roomAfter = (spentCents: number, limits: Limits): SpendingRoom => {
  const room30DaysCents = Math.max(0, limits.per30DaysCents - spentCents);
  return { ...limits, room30DaysCents, roomCents: Math.min(limits.perOrderCents, room30DaysCents) };
};

export const spendingRoom = async (
  db: Sql,
  options: Limits & { personId: string; now: Date },
): Promise<SpendingRoom> => {
  const [{ spent }] = await db.$queryRaw<
    { spent: number }[]
  >`SELECT ${spentIn30DaysSql(options.personId, options.now)} AS spent`;
  return roomAfter(spent, options);
};

/** The over_spending_limit details when `totalCents` does not fit the room; null when it does. */
export const overSpendingLimit = (totalCents: number, room: SpendingRoom) => {
  if (totalCents <= room.roomCents) return null;
  const overPerOrder = totalCents > room.perOrderCents;
  return {
    limitCents: overPerOrder ? room.perOrderCents : room.per30DaysCents,
    roomCents: room.roomCents,
    message: overPerOrder
      ? "The total is over the person's limit per order."
      : "The total is over what the person's 30-day limit has left.",
  };
};

/**
 * The person's spending settings when they allow an assistant purchase (limits set, not paused);
 * purchases_paused or spending_limit_not_set otherwise (409 where every refusal is, as POST /price-watches).
 */
export const spendingSettingsAllowingPurchase = async (
  db: Pick<Tx, "person">,
  personId: string,
  options: { status?: 409 } = {},
) => settingsAllowingPurchase(await readSpendingSettings(db, personId), options);

/** The same check on settings already read (undefined: no such person). */
export const settingsAllowingPurchase = (
  settings: SpendingSettings | undefined,
  options: { status?: 409 } = {},
) => {
  const refusal = settings ? purchaseRefusal(settings) : "spending_limit_not_set";
  if (refusal) {
    throw new AppError(refusal, {
      message:
        refusal === "purchases_paused"
          ? "The person paused assistant purchases."
          : "The person has not set spending limits.",
      status: options.status,
    });
  }
  return settings!;
};
