/**
 * What the watches' own paths do when the watch they move is an alternative of an any-of group
 * (ADR 0118): the evaluator claims the group with the alternative, an alternative that ends alone
 * (its item sold, its store now sells by link) leaves the group to the others, an end that is the
 * person's ends the whole group, and a purchase's answer closes the group in the transaction that
 * records it. Each function is a no-op for a watch in no group, so the callers stay one path.
 */
import { type Sql, poolSql, sqlTransaction } from "../../platform/sql";
import { notifyPriceWatchClosed } from "../../platform/jobs/events";
import type { EndOutcome } from "../states";
import { endWatch, moveWatch, type MovedWatch } from "../watch-writer";
import { endsOnlyTheAlternative } from "./group-states";
import { closeGroupWith, endGroup, endGroupIn, moveGroup } from "./group-writer";
import { writeGroupEndedEmail } from "./group-emails";
import { findGroupIdOfWatch, lockGroupOfWatch, lockGroupWithAlternatives } from "./store";

/** Thrown inside the claim's transaction to undo the group's claim when the alternative's failed. */
class AlternativeMovedOn extends Error {}

/**
 * Claims an alternative for its purchase: in one transaction, the group active -> executing with
 * this alternative (the conditional update that lets only one of two evaluators on) and then the
 * alternative active -> executing with its quote. Null when the group or the alternative had moved on.
 */
export const claimAlternative = async (
  watch: { id: number; groupId: string },
  quoteId: string,
  now: Date,
): Promise<MovedWatch | null> => {
  try {
    return await sqlTransaction(async (sql) => {
      const group = await moveGroup(sql, {
        id: watch.groupId,
        event: "claim",
        now,
        claim: { watchId: watch.id },
      });
      if (!group) return null;
      const claimed = await moveWatch(sql, {
        id: watch.id,
        event: "claim",
        now,
        data: { quoteId, claimedAt: now },
      });
      if (!claimed) throw new AlternativeMovedOn();
      return claimed;
    });
  } catch (error) {
    if (error instanceof AlternativeMovedOn) return null;
    throw error;
  }
};

/**
 * Brings a group in line with its alternatives, under the group's row lock, in a transaction of its
 * own: executing while its claimed alternative no longer is, it follows that alternative (bought,
 * needs the person) or goes back to active so another alternative may buy; active with no live
 * alternative left, it ends (cancelled, with the outcome of the last alternative to end) and emails
 * the person. Idempotent: the evaluator calls it after an alternative's own move, and the recovery
 * sweep for a group a crash left behind.
 */
export const settleGroup = async (groupId: string, now: Date) => {
  const ended = await sqlTransaction(async (sql) => {
    const group = await lockGroupWithAlternatives(sql, groupId);
    if (!group) return [];
    let status = group.status;
    const claimed = group.alternatives.find(({ id }) => id === group.claimedWatchId);
    if (status === "executing" && claimed?.status !== "executing") {
      if (claimed && ["fulfilled", "needs_you"].includes(claimed.status) && claimed.purchaseId) {
        return closeGroupWith(sql, groupId, {
          watchId: claimed.id,
          event: claimed.status === "fulfilled" ? "bought" : "needs_person",
          outcome: claimed.outcome ?? "card_declined",
          purchaseId: claimed.purchaseId,
          now,
        });
      }
      await moveGroup(sql, { id: groupId, event: "release", now, claim: { watchId: null } });
      status = "active";
    }
    const isLive = ({ status: state }: { status: string }) =>
      state === "active" || state === "executing";
    if (status !== "active" || group.alternatives.some(isLive)) return [];
    const last = group.alternatives[0]?.outcome ?? "expired";
    const moved = await moveGroup(sql, { id: groupId, event: "end", now, outcome: last });
    if (moved) await writeGroupEndedEmail(sql, moved, last);
    return [];
  });
  for (const id of ended) notifyPriceWatchClosed(id);
};

/** `settleGroup` for each of these groups once; after their alternatives ended item_sold. */
export const settleGroups = async (groupIds: readonly string[], now: Date) => {
  for (const groupId of new Set(groupIds)) await settleGroup(groupId, now);
};

/** After an alternative's own move (release, an end of its own): its group follows. */
export const settleGroupOfWatch = async (watchId: number, now: Date) => {
  const groupId = await findGroupIdOfWatch(poolSql, watchId);
  if (groupId) await settleGroup(groupId, now);
};

/**
 * Ends a watch by the service (event `end`, or item_sold) with its email, as endWatch does; an
 * alternative whose end is the person's (their standing, address, card, market, a failed payment)
 * ends its whole group instead, one email for the group; one whose end is its own (item sold, its
 * store sells by link) ends alone and the group goes on with the others (settleGroup).
 */
export const endWatchOrGroup = async (move: {
  id: number;
  event: "end" | "item_sold";
  outcome?: EndOutcome;
  now: Date;
}) => {
  const groupId = await findGroupIdOfWatch(poolSql, move.id);
  if (!groupId) return endWatch(move);
  const outcome = move.event === "item_sold" ? "item_sold" : (move.outcome ?? "cancelled");
  // While another alternative is buying, its purchase decides (byAlternative): this one waits for that answer.
  if (!endsOnlyTheAlternative(outcome))
    return endGroup(groupId, { event: "end", now: move.now, outcome, byAlternative: move.id });
  const ended = await endWatch(move);
  await settleGroup(groupId, move.now);
  return ended;
};

/** Expires the group of an alternative (every alternative shares its expiry); undefined for a watch in no group. */
export const expireGroupOfWatch = async (watchId: number, now: Date) => {
  const groupId = await findGroupIdOfWatch(poolSql, watchId);
  if (!groupId) return undefined;
  return endGroup(groupId, { event: "expire", now });
};

/**
 * In the transaction that records a purchase's answer on its watch, before the watch moves: locks
 * the watch's group (the group row first, as every group move does); the group's id, or undefined.
 */
export const lockGroupOfAlternative = async (sql: Sql, watchId: number) =>
  (await lockGroupOfWatch(sql, watchId))[0]?.id;

/**
 * After the purchase's answer moved an alternative, in the same transaction: bought or needs the
 * person closes the group (closeGroupWith); a failed payment spent the group's one purchase and
 * ends it. The other alternatives' ids it ended (to notify after the commit).
 */
export const followPurchaseIn = async (
  sql: Sql,
  groupId: string,
  watch: { id: number; purchaseId: string },
  record: { event: "bought" | "needs_person" | "payment_failed"; outcome: string; now: Date },
) => {
  // A failed payment spent the group's one purchase: the group ends (the alternative's own email tells why).
  if (record.event === "payment_failed")
    return endGroupIn(
      sql,
      groupId,
      { event: "end", now: record.now, outcome: "payment_failed", byAlternative: watch.id },
      { email: false },
    );
  return closeGroupWith(sql, groupId, {
    watchId: watch.id,
    event: record.event,
    outcome: record.outcome,
    purchaseId: watch.purchaseId,
    now: record.now,
  });
};
