/**
 * Orphan holds (B4-13) and releases that did not happen, run by the sweep. No hold can exist
 * without its purchase row: buy-quote.ts writes the row (`processing`) and its payment
 * (`authorizing`) before asking the processor. So a process stopped between the processor's hold and
 * our record of it leaves a purchase still `processing` past a deadline; here it is looked up at the
 * processor by its key (`pur_x:authorize`, never a second authorize), any hold found is released
 * (`pur_x:release`), and the purchase is refused with reason `bank_no_answer`: nothing charged, and
 * nothing the person was not told about (no copy email went out). POST /purchases staged `202
 * processing` under its Idempotency-Key in the transaction that wrote the row, so the assistant's
 * retry after such a crash gets that purchase (and GET follows it here), never a second purchase
 * or hold. Then any hold still open under a
 * purchase that closed (cancelled, refused, requires_person: the process stopped after the move and
 * before the release) is released.
 */
import { type Db, inTransaction } from "../platform/db";
import { logger } from "../platform/observability/log";
import {
  attemptTimeoutMs,
  findPaymentOfPurchase,
  listHoldsOfClosedPurchases,
  lookUpAuthorize,
  recordAuthorizeLookup,
  releasePayment,
} from "../payments";
import type { PaymentProvider, ProcessorPayment } from "../payments";
import { movePurchase } from "./purchase-writer";
import { listStuckPurchases } from "./store/purchases";

/**
 * Settles one purchase stuck in processing; true when it is now refused with nothing held. The move
 * comes first (review M2): the slow request's own answer may land at any moment and move the
 * purchase to held, so the hold is released only when this move won. The move and the payment's
 * record commit together (a stop before the release leaves an authorized payment under a refused
 * purchase, which the leftover pass below releases); the payment is written only while still
 * `authorizing` (a late answer that recorded the hold first keeps its record; the release after
 * records the void).
 */
const settleStuck = async (db: Db, provider: PaymentProvider, purchaseId: string, now: Date) => {
  const payment = await findPaymentOfPurchase(db, purchaseId);
  let found: ProcessorPayment | null = null;
  if (payment && payment.status === "authorizing") {
    const lookup = await lookUpAuthorize(provider, payment, now);
    if (lookup.kind === "ask_later") return false;
    found = lookup.kind === "found" ? lookup.payment : null;
  }
  const moved = await inTransaction(db, async (tx) => {
    if (
      !(await movePurchase(tx, { id: purchaseId, event: "refuse", now, reason: "bank_no_answer" }))
    )
      return false;
    if (payment && payment.status === "authorizing") {
      await recordAuthorizeLookup(tx, { id: payment.id, found, now });
    }
    return true;
  });
  if (
    moved &&
    payment &&
    found &&
    (found.status === "authorized" || found.status === "requires_action")
  ) {
    // Failing, it is the leftover pass's below (a hold under a refused purchase).
    await releasePayment(db, provider, { ...payment, processorPaymentId: found.id }).catch(
      (error: unknown) =>
        logger.warn(
          { purchase_id: purchaseId, err: error },
          "purchases: releasing a hold found after no answer failed; tried again next run",
        ),
    );
  }
  return moved;
};

export const reconcilePurchases = async (
  db: Db,
  options: { now: Date; provider: PaymentProvider; limit?: number },
) => {
  const { now, provider } = options;
  const take = options.limit ?? 20;
  const stuck = await listStuckPurchases(db, {
    before: new Date(now.getTime() - attemptTimeoutMs),
    take,
  });
  let refused = 0;
  for (const { id } of stuck) if (await settleStuck(db, provider, id, now)) refused++;
  const leftover = await listHoldsOfClosedPurchases(db, take);
  let released = 0;
  // One hold the processor will not release must not stop the others: it is tried again next run.
  for (const payment of leftover)
    await releasePayment(db, provider, payment).then(
      () => released++,
      (error: unknown) =>
        logger.warn(
          { payment_id: payment.id, err: error },
          "purchases: releasing a hold under a closed purchase failed; tried again next run",
        ),
    );
  return { refused, released };
};
