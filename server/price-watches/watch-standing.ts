/**
 * A watch's standing: whether the person still lets its assistant buy for them, the one rule the
 * evaluator checks before any quote and every change of those permissions applies at once.
 * A watch can no longer buy when the assistant lost its purchase:write grant (the person
 * disconnected it, a grant was revoked, the client was revoked), purchases are paused, or the
 * limits are gone or below the watch's max_total.
 *
 * `endWatchesOutOfStanding` runs in the transaction of such a change: every live watch it takes
 * the standing from ends there (event `withdraw`, with its email and webhook event), so the person
 * sees the watch end when they act, not at the next price change. An executing watch (claimed, its
 * purchase about to run or being replayed by the recovery sweep) ends too unless its purchase
 * exists: that is decided under the person's row lock, the one the purchase takes to check the grant
 * and the watch (review M3), so either the purchase was made while the person still let it (it stays
 * the watch's, recorded as usual) or it finds the grant gone and the watch ended and buys nothing.
 */
import type { Tx } from "../platform/db";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import { lockPersons, spendingSettingsOf } from "../accounts";
import type { Sql } from "../platform/sql";
import { moveWatch } from "./watch-writer";
import { writeWatchEndedEmail } from "./watch-emails";
import { type Standing, standingRefusal } from "./policy";
import { findExecutingWithoutPurchase, readStanding, type StandingRow } from "./store/evaluation";
import { findActiveWatchesOf, findExecutingPersons } from "./store/watches";
import { endGroupsOutOfStanding } from "./groups/group-standing";

type Actor = { clientId: string; personId: string };

const standingOf = (row: StandingRow | undefined): Standing => ({
  hasGrant: row?.hasGrant ?? false,
  settings: row && spendingSettingsOf(row),
});

const standingOfActor = async (sql: Sql, actor: Actor, now: Date) =>
  standingOf(await readStanding(sql, actor, now));

/** Why this watch can no longer buy, or null when it still may, from its standing's columns (read with the watch). */
export const standingOutcome = (row: StandingRow, maxTotalCents: number) =>
  standingRefusal(standingOf(row), maxTotalCents);

/**
 * Ends, in this transaction, the active watches of a person and/or a client whose standing the
 * change just took away; the ids it ended (pass them to `notifyWatchesEnded` after the commit).
 */
export const endWatchesOutOfStanding = async (
  tx: Tx,
  scope: { personId?: string; clientId?: string },
  now: Date,
) => {
  const where = { personId: scope.personId, clientId: scope.clientId };
  const active = await findActiveWatchesOf(tx, where);
  const watches = [...active, ...(await executingWithoutPurchase(tx, where))];
  const standings = new Map<string, Standing>();
  const ended: number[] = [];
  for (const watch of watches) {
    const key = `${watch.clientId} ${watch.personId}`;
    if (!standings.has(key)) standings.set(key, await standingOfActor(tx, watch, now));
    const outcome = standingRefusal(standings.get(key)!, watch.maxTotalCents);
    if (!outcome) continue;
    const moved = await moveWatch(tx, { id: watch.id, event: "withdraw", outcome, now });
    if (!moved) continue;
    await writeWatchEndedEmail(tx, moved, outcome);
    ended.push(watch.id);
  }
  // Any-of groups end whole, one email each (a group's alternatives are not among the watches above).
  ended.push(...(await endGroupsOutOfStanding(tx, scope, now)));
  return ended;
};

/**
 * The executing watches of the scope whose purchase does not exist, read after taking their persons'
 * row locks (in id order): a purchase in its first transaction holds that lock to its commit, so
 * what is read here is either a committed purchase or none that can still pass its checks.
 */
const executingWithoutPurchase = async (
  tx: Tx,
  where: { personId?: string; clientId?: string },
) => {
  const personIds = (await findExecutingPersons(tx, where)).sort();
  if (personIds.length === 0) return [];
  await lockPersons(tx, personIds);
  return findExecutingWithoutPurchase(tx, personIds, where);
};

/** After the change committed: the ended watches' expiry timers are no longer needed. */
export const notifyWatchesEnded = (ids: readonly number[]) =>
  ids.forEach((id) => notifyPriceWatchClosed(id));
