/**
 * The purchase's final answer under its Idempotency-Key, written in the transaction that records
 * the bank's answer (record-answer.ts), so the key's answer and what it reports commit together:
 * 201 held, 202 processing, 402 requires_person with a checkout the person may pay at, or a
 * refusal. A price watch records its own state in the same transaction (step 3b of buy-quote.ts).
 */
import { AppError } from "../core/errors";
import type { Tx } from "../platform/db";
import { rollbackToSavepoint, type Sql, takeSavepoint } from "../platform/sql";
import { finishIdempotent, type IdempotencyKeyRef } from "../platform/idempotency";
import { insertCheckout, type QuoteSnapshot } from "../checkout";
import { purchaseErrorMessage, toWirePurchase } from "./purchase-view";
import type { TPurchaseOutcome } from "./purchase.schema";
import { checkoutRefusal, refusalOutcome, storedAs } from "./policy";
import { type AnsweredRow, readAnsweredPurchase } from "./store/purchases";
import type { CopyEmailFacts } from "./purchase-emails";

/**
 * The purchase as its answer's transaction recorded it, with its quote and the checkout a
 * requires_person answer made; for a hold, what its copy email told the person (`copy`).
 */
type RecordedAnswer = {
  purchase: AnsweredRow;
  snapshot: QuoteSnapshot;
  checkout: { id: string; expiresAt: Date } | null;
  copy?: CopyEmailFacts;
};

/**
 * What a price watch's purchase adds to the steps, the two parts only its caller can write
 * (price-watches sits above purchases: ADR 0105). POST /purchases gives none: its token, grant and
 * client were checked at the edge for this very request.
 */
export type WatchSteps = {
  /**
   * Step 1c, under the person's lock after its state is read: what the caller must still hold for
   * the purchase to go on (the person's grant to its assistant, and the watch still executing and
   * not expired, review M3); it throws the refusal.
   */
  stillWanted: (sql: Sql) => Promise<void>;
  /**
   * Step 3b, in the transaction that records the bank's answer, after the key's answer is stored:
   * what the caller records of the purchase commits with it (a price watch's fulfilment). Not run
   * when the key's stored answer is replayed.
   */
  recordAnswer: (sql: Sql, answer: RecordedAnswer) => Promise<void>;
};

/** The request whose answer goes under the key: the key, the quote bought, and its buyer. */
export type KeyRequest = {
  ref: IdempotencyKeyRef;
  now: Date;
  quoteId: string;
  snapshot: QuoteSnapshot;
  owner: { clientId: string; personId: string };
  email: string;
  watch?: WatchSteps;
};

/** The final answer stored under the key, and the checkout it made (to announce after the commit). */
export type KeyedAnswer = {
  outcome: TPurchaseOutcome;
  checkout: RecordedAnswer["checkout"];
};

/**
 * Stores the final answer from the purchase as this transaction recorded it; `prisma` is that
 * transaction's Prisma client when it is one (every answer but a hold). `recorded` is the purchase
 * as this transaction's move returned it, and its copy email's facts (a hold); without it the
 * purchase is read.
 */
export const storeAnswerUnderKey = async (
  sql: Sql,
  prisma: Tx | undefined,
  id: string,
  request: KeyRequest,
  recorded?: { purchase: AnsweredRow; copy?: CopyEmailFacts },
): Promise<KeyedAnswer> => {
  const purchase = recorded?.purchase ?? (await readAnsweredPurchase(sql, id));
  const answer = await answerOf(purchase, prisma, request);
  await finishIdempotent(sql, request.ref, request.now, storedAs(answer.outcome));
  await request.watch?.recordAnswer(sql, {
    purchase,
    snapshot: request.snapshot,
    checkout: answer.checkout,
    copy: recorded?.copy,
  });
  return answer;
};

/** The final answer from the purchase as the answer's transaction recorded it. */
const answerOf = async (
  purchase: AnsweredRow,
  prisma: Tx | undefined,
  request: KeyRequest,
): Promise<KeyedAnswer> => {
  const answer = (outcome: TPurchaseOutcome) => ({ outcome, checkout: null });
  if (purchase.status === "held" || purchase.status === "capturing")
    return answer({ status: 201, body: toWirePurchase(purchase, null) });
  // The processor refused the create itself (our key or permissions, review M4): a refusal, nothing held.
  if (purchase.status === "refused" && purchase.reason === "processor_refused") {
    return answer(
      refusalOutcome(
        new AppError("processor_refused", { message: purchaseErrorMessage("processor_refused") }),
      ),
    );
  }
  if (purchase.status !== "requires_person")
    return answer({ status: 202, body: toWirePurchase(purchase, null) });
  // Nothing was charged: the move to requires_person gave the reservation back (movePurchase).
  if (purchase.reason === "payment_method_not_found") {
    return answer(
      refusalOutcome(
        new AppError("card_not_on_this_account", {
          message: purchaseErrorMessage("card_not_on_this_account"),
        }),
      ),
    );
  }
  // requires_person: a real checkout of this quote for the person to pay themselves (a requires_person
  // answer is recorded in a Prisma transaction: recordAuthorizeAnswer).
  if (!prisma)
    throw new Error(
      `purchase ${purchase.id}: requires_person recorded outside a Prisma transaction`,
    );
  // The checkout may not be makeable any more (an item sold or removed, a price changed while the
  // bank was asked): its partial reservation is rolled back to the savepoint, the purchase still
  // closes requires_person (nothing charged), and the key's one answer is that refusal (review L3).
  // Only on this rare path: the hold's path has no savepoint.
  await takeSavepoint(prisma, "pay_yourself_checkout");
  let inserted;
  try {
    inserted = await insertCheckout(prisma, {
      quoteId: request.quoteId,
      snapshot: request.snapshot,
      owner: request.owner,
      email: request.email,
      firstName: null,
      lastName: null,
      selections: {},
      now: request.now,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await rollbackToSavepoint(prisma, "pay_yourself_checkout");
    return answer(refusalOutcome(checkoutRefusal(error, purchase.reason)));
  }
  return {
    outcome: { status: 402, body: toWirePurchase(purchase, inserted) },
    checkout: inserted,
  };
};
