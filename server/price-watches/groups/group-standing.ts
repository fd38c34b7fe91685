/**
 * A group's standing: the single watch's rule (policy.ts `standingRefusal`, for the group's
 * max_total), applied in the transaction of the person's change (watch-standing.ts): a live group
 * whose standing the change took away ends there with all its alternatives (event withdraw, one
 * email). An executing group ends too unless its claimed alternative's purchase exists, decided
 * under the person's row lock, the one the purchase takes (as for a single watch, review M3).
 */
import { lockPersons, spendingSettingsOf } from "../../accounts";
import type { Tx } from "../../platform/db";
import { standingRefusal } from "../policy";
import { readStanding } from "../store/evaluation";
import { endGroupIn } from "./group-writer";
import { findExecutingGroupPersons, findGroupsToWithdraw } from "./store";

/**
 * Ends, in this transaction, the live groups of a person and/or a client whose standing the change
 * just took away; the ids of the alternatives it ended (to notify after the commit).
 */
export const endGroupsOutOfStanding = async (
  tx: Tx,
  scope: { personId?: string; clientId?: string },
  now: Date,
) => {
  const where = { personId: scope.personId, clientId: scope.clientId };
  const personIds = (await findExecutingGroupPersons(tx, where)).sort();
  if (personIds.length) await lockPersons(tx, personIds);
  const ended: number[] = [];
  for (const group of await findGroupsToWithdraw(tx, where)) {
    const row = await readStanding(tx, group, now);
    const outcome = standingRefusal(
      { hasGrant: row?.hasGrant ?? false, settings: row && spendingSettingsOf(row) },
      group.maxTotalCents,
    );
    if (!outcome) continue;
    ended.push(...(await endGroupIn(tx, group.id, { event: "withdraw", now, outcome })));
  }
  return ended;
};
