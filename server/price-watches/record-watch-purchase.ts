/**
 * The record step of a watch's purchase: what the purchase answered, written on the watch. Used by
 * `buy` (evaluate-watch.ts: the check under the purchase's lock, the answer in the purchase's own
 * transaction, a refusal after it) and by the recovery sweep (watch-jobs.ts) for a purchase that
 * exists. Each move is the writer's guarded one (watch-writer.ts), so a replay records nothing twice.
 */
import { AppError } from "../core/errors";
import { checkoutUrl } from "../checkout";
import { type CopyEmailFacts, type RecordedPurchase, readRecordedPurchase } from "../purchases";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import { poolSql, type Sql, sqlTransaction } from "../platform/sql";
import { expireWatch } from "./expire-watch";
import { purchaseRecord } from "./policy";
import { outcomeOfPurchaseRefusal } from "./states";
import { findPurchaseOfWatchQuote } from "./store/borrowed";
import { readClaimStanding } from "./store/evaluation";
import { keepPurchaseOnWatch } from "./store/moves";
import { writeWatchBoughtEmail, writeWatchNeedsYouEmail } from "./watch-emails";
import { endWatchIn, moveWatch } from "./watch-writer";
import {
  endWatchOrGroup,
  followPurchaseIn,
  lockGroupOfAlternative,
  settleGroupOfWatch,
} from "./groups/alternatives";

/**
 * Under the person's lock (the purchase's `stillWanted` step, 1c of ADR 0105), in one statement: the person still lets the
 * watch's assistant buy (a live grant with purchase:write, the client not revoked: the one rule,
 * hasPurchaseGrantSql), and the watch is still claimed and not expired. A watch whose person
 * disconnected the assistant (or whose grant or client was revoked) after the claim, one a pause ended
 * while its purchase waited, or the recovery sweep's replay of a claim that outlived the watch, buys
 * nothing (review M3). `now` is the claim's time on the first run and the sweep's on a replay.
 */
export const stillClaimed = async (sql: Sql, id: number, now: Date) => {
  const watch = await readClaimStanding(sql, id, now);
  if (watch && !watch.granted) {
    throw new AppError("agent_purchases_unavailable", {
      message:
        "The person no longer lets this assistant buy for them (no live grant with purchase:write, or the assistant was revoked); nothing was bought.",
    });
  }
  if (!watch?.live)
    throw new AppError("quote_expired", {
      message: "The price watch ended or expired before its purchase; nothing was bought.",
    });
};

/** After the purchase path refused a claimed watch: its purchase if one exists, else the refusal's end, else active again. */
export const afterRefusal = async (id: number, code: string, now: Date) => {
  // A purchase of the recorded quote exists (quote_already_purchased: a replay raced the first run): it is the watch's one purchase.
  const made = await findPurchaseOfWatchQuote(poolSql, id);
  if (made) return recordPurchase(id, made, now);
  const ended = outcomeOfPurchaseRefusal(code);
  // An any-of group's alternative: an end of its own leaves the group to the others, the person's ends the group (groups/).
  if (ended === "item_sold") return endWatchOrGroup({ id, event: "item_sold", now });
  if (ended) return endWatchOrGroup({ id, event: "end", outcome: ended, now });
  // Nothing was bought and it may buy later (price_changed, too_many_purchases): active again, with a new quote next time;
  // a watch whose time ran out meanwhile (a claim replayed by the recovery sweep) then expires.
  const released = await moveWatch(poolSql, {
    id,
    event: "release",
    now,
    data: { quoteId: null, claimedAt: null },
  });
  // Its group, if any, is active again too, so another alternative may buy.
  await settleGroupOfWatch(id, now);
  if (released && released.expiresAt <= now) await expireWatch(id, now);
  return released;
};

/**
 * Records a purchase that exists (the recovery sweep, a replay) on its watch, in a transaction of
 * its own; the purchase's state as `recordOnWatch` says.
 */
export const recordPurchase = async (id: number, purchaseId: string, now: Date) => {
  const purchase = await readRecordedPurchase(poolSql, purchaseId);
  if (!purchase) throw new Error(`purchase ${purchaseId} not found`);
  if (await sqlTransaction((sql) => recordOnWatch(sql, id, purchase, now)))
    notifyPriceWatchClosed(id);
};

/**
 * Records the purchase's state on the watch, in the caller's transaction (the decision is
 * `purchaseRecord`): held -> fulfilled (bought, order number, the bought email); requires_person
 * -> needs_you (the checkout link emailed); processing: the purchase is kept on the watch, which
 * stays executing until the bank's answer is known (recovery sweep); refused (the bank never
 * answered, nothing held): ended payment_failed (one purchase per watch). True when this call
 * closed the watch. What the caller knows is not read again: `known.groupId`, the watch's group
 * (a watch never changes group; null for none), and `known.copy`, what the purchase's copy email,
 * written in this transaction, told the person.
 */
export const recordOnWatch = async (
  sql: Sql,
  id: number,
  purchase: RecordedPurchase,
  now: Date,
  known: { groupId?: string | null; copy?: CopyEmailFacts } = {},
): Promise<boolean> => {
  const { priceCents } = purchase;
  const purchaseId = purchase.id;
  const record = purchaseRecord(purchase.status);
  // An any-of group's alternative: the group row is locked first (groups/group-writer.ts), and follows below.
  const groupId =
    record === "keep_processing" || known.groupId === null
      ? undefined
      : await lockGroupOfAlternative(sql, id);
  const follow = async (event: "bought" | "needs_person" | "payment_failed", outcome: string) => {
    if (groupId) await followPurchaseIn(sql, groupId, { id, purchaseId }, { event, outcome, now });
  };
  if (record === "keep_processing") {
    await keepPurchaseOnWatch(sql, id, purchaseId);
    return false;
  }
  if (record === "payment_failed") {
    // The bank never answered and the hold was released: nothing charged, but the watch's one purchase is spent.
    const ended = await endWatchIn(sql, {
      id,
      event: "end",
      outcome: "payment_failed",
      now,
      data: { purchaseId },
    });
    if (ended) await follow("payment_failed", "payment_failed");
    return ended;
  }
  if (record === "needs_person") {
    const { checkoutId } = purchase;
    const watch = await moveWatch(sql, {
      id,
      event: "needs_person",
      now,
      outcome: purchase.reason ?? "card_declined",
      data: { purchaseId, checkoutId },
    });
    if (!watch) return false;
    await follow("needs_person", watch.outcome ?? "card_declined");
    if (checkoutId && purchase.checkoutExpiresAt) {
      await writeWatchNeedsYouEmail(sql, watch, {
        priceCents,
        reason: purchase.reason ?? "card_declined",
        checkoutUrl: checkoutUrl(checkoutId),
        checkoutExpiresAt: purchase.checkoutExpiresAt,
      });
    }
    return true;
  }
  // held, capturing, paid, or already cancelled by the person from the copy email: it bought.
  const watch = await moveWatch(sql, {
    id,
    event: "bought",
    now,
    data: { purchaseId, orderNumber: purchase.orderNumber },
  });
  if (!watch) return false;
  await follow("bought", "bought");
  if (purchase.orderNumber && purchase.chargesAt) {
    await writeWatchBoughtEmail(
      sql,
      watch,
      {
        id: purchaseId,
        orderNumber: purchase.orderNumber,
        grandTotalCents: purchase.grandTotalCents,
        chargesAt: purchase.chargesAt,
        cancelUntil: purchase.cancelUntil,
        priceCents,
      },
      known.copy,
    );
  }
  return true;
};
