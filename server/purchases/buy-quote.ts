/**
 * POST /purchases (purchases.create): an assistant buys a quote with the person's saved card,
 * within the person's limits. A price watch buys through the same steps (evaluate-watch.ts), adding
 * its two (1c, 3b). The steps, so that no transaction is open while the processor is asked:
 * 1. read the context: the assistant, the quote, the person's email and saved address, one
 *    statement;
 * 2. open the purchase, in one short transaction: claim the Idempotency-Key with `202 processing`
 *    staged as its answer should the process die before the next step, take a savepoint after the
 *    claim, check the quote has not expired, reserve the items, write the purchase (`processing`),
 *    then check in the order of the reference's rules (what depends on other purchases: prices and
 *    stock, both limits, the hourly count, under a lock on the person's row, so two purchases of
 *    one person cannot both fit; the saved card is read under that lock too, which its removal
 *    takes, and a price watch's purchase checks the person's grant and the watch there, step 1c,
 *    review M3; the lock is taken last, and from the reservation to the payment's insert every
 *    statement goes out as one pipeline, so it is held for one round trip and the commit, ADR
 *    0136) and open the payment; a refusal rolls it all back to the savepoint, keeping the key's
 *    claim, and stores the refusal under the key in the same transaction;
 * 3. ask the processor for the hold (key `pur_x:authorize`), outside any transaction;
 * 4. record the bank's answer in one short transaction through the purchase writer and store the
 *    final answer under the key: 201 held, 202 processing, 402 requires_person with a checkout link
 *    (a price watch records its state there, step 3b);
 * 5. answer.
 * Idempotent per (client, person) and key: every outcome but too_many_purchases and the checks
 * before the claim (token, switch, unknown quote) is stored and replayed byte for byte; a duplicate
 * while the first is running is 409 idempotency_key_in_use with Retry-After. The key is looked at
 * before the quote is: one kept for another request is 422 idempotency_key_reused even when this
 * request's quote does not exist.
 */
import type { z } from "zod";
import { AppError } from "../core/errors";
import { notifyCheckoutCreated } from "../platform/jobs/events";
import type { Db } from "../platform/db";
import {
  pipelined,
  rollbackToSavepoint,
  type Sql,
  sqlTransaction,
  takeSavepoint,
} from "../platform/sql";
import {
  answerExisting,
  claimIdempotencyKey,
  finishIdempotent,
  refuseReusedKey,
  requestHash,
  storeIdempotentRefusal,
} from "../platform/idempotency";
import { openPayment, paymentProvider } from "../payments";
import { reserve, snapshotTotals } from "../checkout";
import { readingOf, spendingSettingsOf } from "../accounts";
import { agentPurchasesOn } from "./agent-purchases";
import { agentPurchasesUnavailable } from "./purchasing-agent";
import { toWirePurchase } from "./purchase-view";
import type { TPurchaseOutcome, ZCreatePurchaseInput } from "./purchase.schema";
import { checkQuote, isStoredRefusal, lockedChecks, refusalOutcome, storedAs } from "./policy";
import { type KeyRequest, type WatchSteps } from "./answer-under-key";
import {
  askForHold,
  asRefusal,
  chargeDelayMs,
  newPurchaseRow,
  type OpenedPurchase,
  recordAuthorizeAnswer,
  type TestSeam,
} from "./record-answer";
import { insertPurchase, type NewPurchaseRow } from "./store/purchases";
import { count } from "../platform/observability/metrics";
import {
  lockPersonAndReadState,
  type PurchaseContext,
  readPurchaseContext,
  savedCardLast4Sql,
} from "./store/locked-state";

type Buyer = { db: Db; now: Date; clientId: string; personId: string };
type PurchaseInput = z.output<typeof ZCreatePurchaseInput>;
type Answered = { result: TPurchaseOutcome; replayed: boolean };

/**
 * The purchase use case behind POST /purchases and a price watch's purchase, for one assistant
 * (client) and person. `options.watch` is the watch's steps 1c and 3b; the test seam lets a test
 * stop the process between the hold and its record (never set in service).
 */
export const buyQuote = async (
  buyer: Buyer,
  input: PurchaseInput,
  options: { watch?: WatchSteps } & Pick<TestSeam, "afterAuthorize"> = {},
): Promise<Answered> => {
  const { db, now } = buyer;
  // 1. The context: the assistant may buy, the quote is this client's for this person.
  const request = await readContext(buyer, input, options.watch);
  // The processor in use, chosen before anything is written (a misconfiguration writes nothing).
  const provider = paymentProvider();
  // 2. The purchase opened in one transaction (1c: the watch still wanted, under the person's lock).
  const opened = await openPurchase(buyer, request);
  if (opened.kind === "key_taken")
    return answerExisting<TPurchaseOutcome>(db, request.key.ref, request.hash, now);
  if (opened.kind === "refused") return { result: refusalOutcome(opened.refusal), replayed: false };
  count("shopping_purchases_total", { outcome: "processing" });
  try {
    // 3. The hold asked of the processor, outside any transaction.
    const result = await askForHold(db, provider, opened.purchase, options);
    // 4. The answer recorded with the key's in one transaction (3b: the watch's record).
    const answer = await recordAnswer(db, provider, { ...opened.purchase, result }, request.key);
    // 5. The answer; the checkout a requires_person answer made is announced after the commit.
    if (answer.checkout) notifyCheckoutCreated(answer.checkout.id);
    return { result: answer.outcome, replayed: false };
  } catch (error) {
    return refusedAfterOpening(buyer, request, error);
  }
};

/** Step 4: the bank's answer recorded, and the key's final answer with it (recordAuthorizeAnswer). */
const recordAnswer = async (...args: Parameters<typeof recordAuthorizeAnswer>) => {
  const answer = await recordAuthorizeAnswer(...args);
  // Given the key's request, the answer's transaction always stores (and returns) the key's answer.
  if (!answer) throw new Error(`purchase ${args[2].id}: no answer stored under its key`);
  return answer;
};

/** A refusal after the first transaction (none is expected) still goes under the key if it is free; anything else is thrown. */
const refusedAfterOpening = async (
  buyer: Buyer,
  request: PurchaseRequest,
  error: unknown,
): Promise<Answered> => {
  if (!isStoredRefusal(error)) throw error;
  const refused = refusalOutcome(error);
  await storeIdempotentRefusal(
    buyer.db,
    request.key.ref,
    request.hash,
    buyer.now,
    storedAs(refused),
  );
  return { result: refused, replayed: false };
};

/** What the steps after the first read: the context, the key's request, its hash and the total. */
type PurchaseRequest = {
  context: PurchaseContext & { quoteId: string };
  key: KeyRequest;
  hash: string;
  grandTotalCents: number;
};

/** Step 1: the context, in one statement; the assistant's switch and the quote are checked before the key. */
const readContext = async (
  buyer: Buyer,
  input: PurchaseInput,
  watch: WatchSteps | undefined,
): Promise<PurchaseRequest> => {
  const { clientId, personId, now } = buyer;
  const { idempotency_key: key, ...request } = input;
  const ref = { scope: `${clientId}:${personId}`, operation: "purchases.create", key };
  const context = await readPurchaseContext({
    clientId,
    personId,
    quoteId: input.quote_id,
    ref,
    now,
  });
  if (!context || !agentPurchasesOn(context)) throw agentPurchasesUnavailable();
  const hash = requestHash(request);
  // The key before the quote: kept for another request, it is 422 whatever quote this one names.
  refuseReusedKey(context.keptRequestHash, hash);
  const { quoteId } = context;
  if (!quoteId) throw new AppError("not_found", { message: `No quote ${input.quote_id}.` });
  return {
    context: { ...context, quoteId },
    key: {
      ref,
      now,
      quoteId,
      snapshot: context.snapshot,
      owner: { clientId, personId },
      email: context.email,
      watch,
    },
    hash,
    grandTotalCents: snapshotTotals(context.snapshot, {}).grandTotalCents,
  };
};

/** Thrown inside the first transaction when another request holds or answered the key: nothing is written. */
class KeyTaken extends Error {}

type Opening =
  | { kind: "opened"; purchase: OpenedPurchase }
  | { kind: "refused"; refusal: AppError }
  | { kind: "key_taken" };

/**
 * Step 2: the purchase opened under the key's claim, or the refusal stored under the key, or the
 * key taken by another request (its answer is replayed). A refusal thrown after the claim (the
 * rules, or the purchase's insert) rolls the transaction back to the savepoint taken after the
 * claim and is stored under the still-claimed key; one key, one answer (review L4): a refusal never
 * lets go of the key, so a concurrent same-key request waiting on the claim gets it replayed. A
 * refusal the key does not keep (too_many_purchases) rolls back whole.
 */
const openPurchase = (buyer: Buyer, request: PurchaseRequest): Promise<Opening> =>
  sqlTransaction(async (sql): Promise<Opening> => {
    const { ref } = request.key;
    const purchase = newPurchaseRow({
      clientId: buyer.clientId,
      personId: buyer.personId,
      quoteId: request.context.quoteId,
      email: request.context.email,
      grandTotalCents: request.grandTotalCents,
      now: buyer.now,
    });
    // The crash answer staged with the claim: the purchase processing (the reconciliation settles it).
    const crashAnswer = storedAs({ status: 202, body: toWirePurchase(purchase, null) });
    // The savepoint goes out with the claim: a key taken by another request rolls back both.
    const [claimed] = await pipelined([
      claimIdempotencyKey(sql, ref, request.hash, buyer.now, crashAnswer),
      takeSavepoint(sql, "purchase_rules"),
    ]);
    if (!claimed) throw new KeyTaken();
    try {
      return { kind: "opened", purchase: await openUnderRules(sql, buyer, request, purchase) };
    } catch (error) {
      const refusal = asRefusal(error);
      // Only a refusal (an AppError) is kept: a database error (a cut connection, lock_timeout) rolls back as it came.
      if (!(refusal instanceof AppError)) throw refusal;
      await rollbackToSavepoint(sql, "purchase_rules");
      if (!isStoredRefusal(refusal)) throw refusal;
      await finishIdempotent(sql, ref, buyer.now, storedAs(refusalOutcome(refusal)));
      return { kind: "refused", refusal };
    }
  }).catch((error: unknown): Opening => {
    if (error instanceof KeyTaken) return { kind: "key_taken" };
    throw error;
  });

/**
 * What reads no other purchase comes before the person's lock, which is held from there to the
 * commit (a refusal after it rolls everything back to the savepoint): the stock, reserved under
 * row locks in id order, and the purchase. Then, under the lock, the state the rules read, a
 * watch's check (step 1c) and the payment. All of it goes out as one pipeline (`pipelined`):
 * PostgreSQL runs each statement after the one before, so the state, the watch and the card are
 * read once the lock is granted, and the lock is held for one round trip and the commit. What the
 * rules refuse is rolled back with the payment written before they were checked.
 */
const openUnderRules = async (
  sql: Sql,
  buyer: Buyer,
  request: PurchaseRequest,
  purchase: NewPurchaseRow,
): Promise<OpenedPurchase> => {
  const { now, personId } = buyer;
  const { context, grandTotalCents } = request;
  const { snapshot } = context;
  const lines = snapshot.stores.flatMap((store) => store.lines);
  if (context.expiresAt <= now)
    throw new AppError("quote_expired", { message: "The quote has expired; create a new quote." });
  const chargesAt = new Date(now.getTime() + chargeDelayMs);
  const [reserved, , state, , payment] = await pipelined([
    reserve(sql, lines),
    insertPurchase(sql, purchase),
    // One purchase of a person at a time from here to the commit: two cannot both fit the 30-day limit.
    lockPersonAndReadState(sql, {
      personId,
      purchaseId: purchase.id,
      itemIds: lines.map((line) => line.itemId),
      now,
    }),
    // Step 1c: a watch's purchase checks that its grant and watch still hold (review M3).
    request.key.watch?.stillWanted(sql),
    // The card as it is under the lock: one being removed now waits for this purchase, or was removed before it (review L14).
    openPayment(sql, {
      owner: { kind: "purchase", id: purchase.id },
      method: "saved",
      amountCents: grandTotalCents,
      cardLast4: savedCardLast4Sql(personId),
      now,
    }),
  ]);
  const settings = checkQuote({
    snapshot,
    quoteAddress: context.address,
    savedAddress: context.shippingAddress,
    settings: spendingSettingsOf(state),
    hasCard: Boolean(state.card),
  });
  lockedChecks({ state, snapshot, reserved, grandTotalCents, now, settings });
  const card = state.card!;
  return {
    id: purchase.id,
    email: context.email,
    grandTotalCents,
    assistant: context.name,
    // The copy email's language and zone, from what the context read (the one rule: accounts' readingOf).
    reading: readingOf({
      language: context.language,
      province: context.shippingAddress?.province ?? null,
    }),
    payment,
    method: {
      type: "saved",
      customerId: card.processorCustomerId,
      paymentMethodId: card.paymentMethodId,
    },
    now,
    chargesAt,
  };
};
