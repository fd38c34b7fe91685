/**
 * Evaluating a price watch against the item's live price, and buying through the same path as
 * POST /purchases. The evaluator acts as the assistant that set the watch, for its person (that
 * client and person own the quote and the purchase), so the purchase is made by the very code an
 * assistant's calls run: a fresh quote for the saved address (POST /checkout/quotes' use case
 * `quoteItems`), then POST /purchases' use case `buyQuote` with it (key claimed and purchase written in one
 * short transaction, the hold asked outside any transaction, the answer recorded in a second; 24-hour
 * charge, copy email with cancel link, limits, the direct rule, idempotency). Exactly once:
 * - the purchase starts only after `claim` moved the watch active -> executing, one conditional
 *   update before expires_at, so of two evaluators (or two events) at most one goes on;
 * - the Idempotency-Key is the watch and its quote (`pw-<id>-<quote>`), and the quote is recorded
 *   with the claim, so a retry after a crash replays the same purchase rather than making another;
 * - a refusal that makes no purchase ends the watch or releases it to active (price_changed: the
 *   newer price change evaluates it again).
 * A sale evaluates thousands of watches at once, so the watch's own reads and moves are raw SQL
 * (store/evaluation.ts, store/moves.ts: about a tenth of Prisma's CPU a statement); the quote and
 * the purchase are the operations' own code. The steps read top to bottom: read the item's watches,
 * decide before the quote (policy.ts `beforeQuote`), quote (watch-quote.ts), decide on the quote
 * (`afterQuote`), claim, buy, record (record-watch-purchase.ts).
 */
import type { Db } from "../platform/db";
import { buyQuote, standingOrderFailure } from "../purchases";
import type { TPurchase, TPurchaseOutcome } from "../purchases";
import { notifyPriceWatchClosed } from "../platform/jobs/events";
import { poolSql } from "../platform/sql";
import { count } from "../platform/observability/metrics";
import { endWatches, moveWatch } from "./watch-writer";
import { claimAlternative, endWatchOrGroup, settleGroups } from "./groups/alternatives";
import { standingOutcome } from "./watch-standing";
import { afterQuote, beforeQuote, purchaseRecord, type Stop } from "./policy";
import {
  evaluationOfRecord,
  evaluationOfRefusal,
  recordEvaluation,
  recordStop,
  type Seen,
} from "./record-evaluation";
import {
  type EvaluatedWatch,
  readClaimedWatch,
  readItemWatches,
  type WatchActor,
} from "./store/evaluation";
import { freshQuote, withNothingToBuy } from "./watch-quote";
import { expireWatch } from "./expire-watch";
import { afterRefusal, recordOnWatch, recordPurchase, stillClaimed } from "./record-watch-purchase";

/**
 * What an evaluation did to its item's stock: `took_stock` (it bought) or `found_sold` (ended
 * item_sold) tell the item's other watches that theirs may be gone too (evaluateItemWatches).
 */
type Evaluation = "took_stock" | "found_sold" | undefined;

/**
 * Evaluates the active watches on an item that a price change concerns (the price-change handler),
 * oldest first. When one buys the item or finds it sold, the ones left whose size a quote can no
 * longer buy end item_sold together, in one transaction, instead of one quote and one transaction
 * each (a sale sells most watched items to their first watcher).
 */
export const evaluateItemWatches = async (db: Db, itemId: number, options: { now: Date }) => {
  let pending = await readItemWatches(poolSql, itemId, options.now);
  while (pending.length) {
    const evaluation = await evaluateWatch(db, pending.shift()!, options.now);
    if (!evaluation || !pending.length) continue;
    const sold = await withNothingToBuy(itemId, pending);
    if (!sold.length) continue;
    const ended = await endSold(sold, options.now);
    await recordEvaluation(
      ended,
      {
        priceCents: sold[0].priceCents,
        totalCents: null,
        outcome: "ended",
        failedCondition: "item_available",
      },
      options.now,
    );
    count("shopping_watch_evaluations_total", { outcome: "ended" }, sold.length);
    pending = pending.filter((watch) => !sold.includes(watch));
  }
};

/**
 * Evaluates one active watch now: ends it if it can no longer buy, stays active when the price or
 * the total is over, otherwise claims it and buys. Safe to run any number of times, concurrently.
 */
const evaluateWatch = async (db: Db, watch: EvaluatedWatch, now: Date): Promise<Evaluation> => {
  try {
    const { evaluation, outcome } = await decideAndAct(db, watch, now);
    count("shopping_watch_evaluations_total", { outcome });
    return evaluation;
  } catch (error) {
    count("shopping_watch_evaluations_total", { outcome: "failed" });
    throw error;
  }
};

/** The shopping_watch_evaluations_total outcome of a decision that stops before the purchase. */
const stopOutcome = (step: Stop) =>
  step.next === "wait" || step.next === "set_over_total" ? "not_qualified" : "ended";

const decideAndAct = async (
  db: Db,
  watch: EvaluatedWatch,
  now: Date,
): Promise<{ evaluation: Evaluation; outcome: string }> => {
  const stopped = async (step: Stop, seen: Seen) => ({
    evaluation: await stop(watch, step, now, seen),
    outcome: stopOutcome(step),
  });
  const lostStanding = standingOutcome(watch, watch.maxTotalCents);
  const first = beforeQuote({ ...watch, lostStanding }, now);
  if (first.next !== "quote")
    return stopped(first, { priceCents: watch.priceCents, totalCents: null });
  const quote = await freshQuote(watch, now);
  const seen: Seen =
    "quoteId" in quote
      ? { priceCents: quote.unitPriceCents, totalCents: quote.grandTotalCents }
      : { priceCents: watch.priceCents, totalCents: null };
  const decided = afterQuote(watch, quote);
  if (decided.next !== "claim") return stopped(decided, seen);
  const claimed = await claim(watch, decided.quoteId, now);
  if (!claimed) return { evaluation: undefined, outcome: "claimed_elsewhere" };
  const evaluation = await buy(db, { ...claimed, quoteId: decided.quoteId }, now, seen);
  // took_stock: the purchase is held; otherwise refused, or the person must pay through a link.
  return { evaluation, outcome: evaluation === "took_stock" ? "bought" : "not_bought" };
};

type WatchOfGroup = Pick<EvaluatedWatch, "id" | "groupId">;

/** Ends active watches item_sold: the evaluator's, never a claimed one's (that is its purchase's to end); an any-of group goes on with its other alternatives. */
const endSold = async (watches: readonly WatchOfGroup[], now: Date): Promise<number[]> => {
  const ended = await endWatches(
    watches.map((watch) => watch.id),
    { event: "item_sold", now, from: ["active"] },
  );
  // A watch's group never changes (WatchActor.groupId): the groups to settle are known, not read.
  await settleGroups(
    watches.flatMap((watch) => (watch.groupId && ended.includes(watch.id) ? [watch.groupId] : [])),
    now,
  );
  return ended;
};

/** Makes the move a decision that stops the evaluation asks for (or none), and records the evaluation (record-evaluation.ts). */
const stop = async (
  watch: WatchOfGroup,
  step: Stop,
  now: Date,
  seen: Seen,
): Promise<Evaluation> => {
  const { id } = watch;
  switch (step.next) {
    case "expire":
      return void (await recordStop(id, step, seen, now, await expireWatch(id, now)));
    case "end_sold":
      await recordStop(id, step, seen, now, (await endSold([watch], now)).length === 1);
      return "found_sold";
    case "end":
      await recordStop(
        id,
        step,
        seen,
        now,
        Boolean(await endWatchOrGroup({ id, event: "end", outcome: step.outcome, now })),
      );
      return;
    case "set_over_total":
    case "wait":
      // Price right, total over: not charged, stays active; expiring so ends it over_your_total.
      // Or the price rose again: the mark is cleared. Recorded by the same statement.
      return void (await recordStop(id, step, seen, now, true));
  }
};

/**
 * Claims the watch for its purchase (active -> executing, before expiry), recording the quote it
 * buys; an any-of group's alternative claims its group with it; null when another run claimed it.
 */
const claim = (watch: EvaluatedWatch, quoteId: string, now: Date) =>
  watch.groupId
    ? claimAlternative({ id: watch.id, groupId: watch.groupId }, quoteId, now)
    : moveWatch(poolSql, { id: watch.id, event: "claim", now, data: { quoteId, claimedAt: now } });

const isPurchase = (body: TPurchaseOutcome["body"]): body is TPurchase => "purchase_id" in body;

type ClaimedWatch = WatchActor & { quoteId: string };

/**
 * Makes (or replays) the purchase of a claimed (executing) watch with its recorded quote and
 * records the answer. Run right after the claim, and again by the recovery sweep for a watch left
 * executing (a crash, or the bank had not answered): the same key replays the same purchase.
 */
export const buyClaimed = async (db: Db, id: number, options: { now: Date }) => {
  const watch = await readClaimedWatch(poolSql, id);
  if (!watch || watch.status !== "executing" || !watch.quoteId) return;
  await buy(db, { ...watch, quoteId: watch.quoteId }, options.now);
};

/**
 * The purchase of a claimed watch, through the purchase's steps with the watch's two (ADR 0105):
 * under the person's lock, the watch and its grant must still hold (step 1c, `stillWanted`); a new
 * purchase records its state on the watch in the very transaction that records the bank's answer
 * (step 3b, `recordAnswer`), so the watch and its purchase commit together; a replayed one (a
 * retry after a crash) is recorded from what the purchase holds.
 */
const buy = async (
  db: Db,
  watch: ClaimedWatch,
  now: Date,
  /** What the evaluation saw (none on the recovery sweep's replay, which records no evaluation). */
  seen?: Seen,
): Promise<Evaluation> => {
  const { id, quoteId } = watch;
  let outcome: TPurchaseOutcome;
  let recorded: { closed: boolean } | undefined;
  try {
    const bought = await buyQuote(
      { db, now, clientId: watch.clientId, personId: watch.personId },
      { quote_id: quoteId, idempotency_key: `pw-${id}-${quoteId}` },
      {
        watch: {
          stillWanted: (sql) => stillClaimed(sql, id, now),
          recordAnswer: async (sql, { purchase, snapshot, checkout, copy }) => {
            const priceCents = snapshot.stores[0]?.lines[0]?.unitPriceCents ?? 0;
            recorded = {
              closed: await recordOnWatch(
                sql,
                id,
                {
                  ...purchase,
                  priceCents,
                  checkoutId: checkout?.id ?? null,
                  checkoutExpiresAt: checkout?.expiresAt ?? null,
                },
                now,
                { groupId: watch.groupId, copy },
              ),
            };
            // The evaluation, in the transaction that records the bank's answer on the watch.
            if (seen)
              await recordEvaluation(
                [id],
                {
                  ...seen,
                  ...evaluationOfRecord(purchaseRecord(purchase.status)),
                },
                now,
                sql,
              );
          },
        },
      },
    );
    outcome = bought.result;
  } catch (error) {
    const failure = standingOrderFailure(error);
    if (failure.kind === "in_flight") return;
    if (failure.kind === "refused") return void (await refused(id, failure.code, now, seen));
    throw error;
  }
  if (!isPurchase(outcome.body))
    return void (await refused(id, outcome.body.error.code, now, seen));
  if (!recorded) await recordPurchase(id, outcome.body.purchase_id, now);
  else if (recorded.closed) notifyPriceWatchClosed(id);
  // 201: held, the quote's stock is the purchase's.
  return outcome.status === 201 ? "took_stock" : undefined;
};

/** A refusal of the purchase path: the watch ends, or is active again (afterRefusal); recorded with the condition it stands for. */
const refused = async (id: number, code: string, now: Date, seen?: Seen) => {
  await afterRefusal(id, code, now);
  if (seen) await recordEvaluation([id], { ...seen, ...evaluationOfRefusal(code) }, now);
};
