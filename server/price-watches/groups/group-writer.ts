/**
 * The one writer of price_watch_groups.status, and of what a group's move does to its
 * alternatives. Every transaction that moves a group and its alternatives takes the group row
 * first (the group's conditional UPDATE, or lockGroupOfWatch before an alternative's own move), then
 * the alternatives, so two such transactions never wait on each other in opposite orders. The
 * alternatives move through the watches' own writer (watch-writer.ts `moveWatch`: their state table,
 * their webhook events).
 */
import { isLiveStandingOrder, outcomeOfMove } from "../../core/standing-order";
import { notifyPriceWatchClosed } from "../../platform/jobs/events";
import { type Sql, sqlTransaction } from "../../platform/sql";
import { expiryOutcome } from "../policy";
import { moveWatch } from "../watch-writer";
import {
  alternativeNeedsYou,
  fulfilledByAlternative,
  type GroupEvent,
  groupTransition,
  isLiveGroup,
} from "./group-states";
import { writeGroupEndedEmail } from "./group-emails";
import { type AlternativeState, readAlternatives, updateGroupStatus } from "./store";

type GroupMove = {
  id: string;
  event: GroupEvent;
  now: Date;
  outcome?: string;
  claim?: { watchId: number | null };
  purchaseId?: string;
  byAlternative?: number;
};

/** Moves the group as its state table allows; the moved group, or undefined when it had moved on. */
export const moveGroup = (sql: Sql, move: GroupMove) => {
  const rule = groupTransition(move.event);
  const isFinal = !isLiveGroup(rule.to);
  return updateGroupStatus(sql, move.id, {
    from: rule.from,
    to: rule.to,
    outcome: isFinal ? outcomeOfMove(rule, move.outcome) : null,
    isFinal,
    needsUnexpired: rule.needsUnexpired,
    needsExpired: rule.needsExpired,
    now: move.now,
    claim: move.claim,
    purchaseId: move.purchaseId,
    byAlternative: move.byAlternative,
  });
};

const isLive = (alternative: AlternativeState) => isLiveStandingOrder(alternative.status);

/**
 * Ends a live group and every live alternative of it with one outcome, in the caller's
 * transaction: cancel (the person or the assistant), expire (each alternative with its own expiry
 * outcome; the group over_your_total when one was last seen over the total), end or withdraw (the
 * service: the person's standing, or a refusal that is the person's). One email for the group. The
 * ids of the alternatives it ended (empty when the group had moved on).
 */
export const endGroupIn = async (
  sql: Sql,
  groupId: string,
  move: {
    event: "expire" | "cancel" | "end" | "withdraw";
    now: Date;
    outcome?: string;
    /** The alternative whose end ends the group: an executing group then ends only if it is the one claimed. */
    byAlternative?: number;
  },
  options: { email?: boolean } = {},
) => {
  const alternatives = await readAlternatives(sql, groupId);
  const overTotal = alternatives.some(
    (alternative) => isLive(alternative) && alternative.overTotal,
  );
  const outcome =
    move.event === "expire" ? expiryOutcome(overTotal) : (move.outcome ?? "cancelled");
  const group = await moveGroup(sql, {
    id: groupId,
    event: move.event === "withdraw" ? "end" : move.event,
    now: move.now,
    outcome,
    byAlternative: move.byAlternative,
  });
  if (!group) return [];
  const ended: number[] = [];
  for (const alternative of alternatives.filter(isLive)) {
    const moved = await moveWatch(sql, {
      id: alternative.id,
      event: move.event,
      now: move.now,
      outcome: move.event === "expire" ? expiryOutcome(alternative.overTotal) : outcome,
    });
    if (moved) ended.push(moved.id);
  }
  if (options.email ?? true) await writeGroupEndedEmail(sql, group, outcome);
  return ended;
};

/** `endGroupIn` in a transaction of its own; notifies the ended alternatives after the commit. True when it ended the group. */
export const endGroup = async (
  groupId: string,
  move: { event: "expire" | "cancel" | "end"; now: Date; outcome?: string; byAlternative?: number },
) => {
  const ended = await sqlTransaction((sql) => endGroupIn(sql, groupId, move));
  for (const id of ended) notifyPriceWatchClosed(id);
  return ended.length > 0;
};

/**
 * The claimed alternative bought (or needs the person): the group follows in the same transaction
 * (fulfilled with the purchase, or needs_you), and every other live alternative ends at once
 * (cancelled, outcome fulfilled_by_alternative or alternative_needs_you), so the group never buys
 * twice. No email of its own: the alternative's bought or needs-you email tells the person.
 */
export const closeGroupWith = async (
  sql: Sql,
  groupId: string,
  close: {
    watchId: number;
    event: "bought" | "needs_person";
    outcome: string;
    purchaseId: string;
    now: Date;
  },
) => {
  const group = await moveGroup(sql, {
    id: groupId,
    event: close.event,
    now: close.now,
    outcome: close.outcome,
    purchaseId: close.purchaseId,
  });
  if (!group) return [];
  const others = (await readAlternatives(sql, groupId)).filter(
    (alternative) => isLive(alternative) && alternative.id !== close.watchId,
  );
  const ended: number[] = [];
  for (const other of others) {
    const moved = await moveWatch(sql, {
      id: other.id,
      event: "end",
      now: close.now,
      outcome: close.event === "bought" ? fulfilledByAlternative : alternativeNeedsYou,
    });
    if (moved) ended.push(moved.id);
  }
  return ended;
};
