/**
 * How much a person's assistants may still spend on one order (policy.ts `roomAfter`). POST
 * /purchases checks a total against it under the person's row lock; POST /price-watches checks
 * max_total against it when the watch is set. Both first read the settings with
 * `spendingSettingsAllowingPurchase`.
 */
import type { Tx } from "../platform/db";
import type { Sql } from "../platform/sql";
import { readSpendingSettings } from "../accounts";
import { roomAfter, settingsAllowingPurchase, type SpendingRoom } from "./policy";
import { readSpentIn30Days } from "./store/locked-state";

export const spendingRoom = async (
  db: Sql,
  options: { perOrderCents: number; per30DaysCents: number; personId: string; now: Date },
): Promise<SpendingRoom> =>
  roomAfter(await readSpentIn30Days(db, options.personId, options.now), options);

/**
 * The person's spending settings when they allow an assistant purchase (limits set, not paused);
 * purchases_paused or spending_limit_not_set otherwise (409 where every refusal is, as POST /price-watches).
 */
export const spendingSettingsAllowingPurchase = async (
  db: Pick<Tx, "person">,
  personId: string,
  options: { status?: 409 } = {},
) => settingsAllowingPurchase(await readSpendingSettings(db, personId), options);
