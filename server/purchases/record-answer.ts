/**
 * The purchase's steps 3 and 4, shared by every way a purchase is held (POST /purchases and a
 * price watch through buy-quote.ts, the sandbox's purchases through hold-sandbox-purchase.ts)
 * and by an answer learnt late (complete-late-authorize.ts), so that a crash anywhere leaves
 * something the reconciliation (reconcile-purchases.ts) can finish, and never an unrecorded hold:
 * - the processor is asked for the hold with key `pur_x:authorize`, outside any transaction (a slow
 *   bank holds no database connection or lock; a retry replays, never a second hold);
 * - one short transaction records the answer: held (order number, charges_at, the copy email with
 *   the cancel link), or requires_person (declined, or the bank wants the person). An unknown
 *   answer (transport errors only) leaves the purchase `processing` for reconciliation; a create
 *   the processor refused itself (ProcessorRefusedError) made nothing: requires_person for a saved
 *   card it no longer has, refused (processor_refused) for our key or permissions.
 * A hold, every purchase's usual answer, is recorded in a raw `pg` transaction
 * (server/platform/sql.ts); the rarer answers in a Prisma one, where POST /purchases writes the
 * checkout the person may pay at (insertCheckout takes a Prisma `Tx`). Given the key's request, the
 * same transaction stores the final answer under the Idempotency-Key (answer-under-key.ts).
 */
import { randomId } from "../core/ids";
import { AppError } from "../core/errors";
import { type Db, inTransaction } from "../platform/db";
import { logger } from "../platform/observability/log";
import { authorizePayment, isProcessorRefusal, releasePayment } from "../payments";
import {
  type HeldPayment,
  openPayment,
  type PaymentMethod,
  type PaymentProvider,
  recordAuthorizedHold,
  recordRefusedAuthorize,
} from "../payments";
import { newOrderNumber } from "../checkout";
import type { ReadingPreferences } from "../accounts";
import { notifyPurchaseHeld } from "../platform/jobs/events";
import { isUniqueViolation, sqlTransaction } from "../platform/sql";
import { movePurchase } from "./purchase-writer";
import { writeCopyEmail } from "./purchase-emails";
import { moveOfAnswer, type PurchaseAnswer } from "./policy";
import type { NewPurchaseRow } from "./store/purchases";
import { type KeyedAnswer, type KeyRequest, storeAnswerUnderKey } from "./answer-under-key";

/** 24 hours between the hold and the charge (the reference's "Purchase charge delay"). */
export const chargeDelayMs = 24 * 3_600_000;

/**
 * Tests only, never set in service: `afterAuthorize` runs between the processor's answer and our
 * record of it (a crash there, or a webhook arriving first); `orderNumbers` gives the order numbers
 * to try (newOrderNumber), so a test can make one clash.
 */
export type TestSeam = {
  afterAuthorize?: (purchaseId: string) => Promise<void>;
  orderNumbers?: () => string;
};

/** A purchase written with its payment (`authorizing`), the card to hold, and what its answer needs. */
export type OpenedPurchase = {
  id: string;
  email: string;
  grandTotalCents: number;
  /** The assistant's name, for the copy email. */
  assistant: string;
  /** The person's language and zone for the copy email, when the caller read them (else it reads them). */
  reading?: ReadingPreferences;
  payment: Awaited<ReturnType<typeof openPayment>>;
  method: Extract<PaymentMethod, { type: "saved" }>;
  now: Date;
  chargesAt: Date;
};

/** A new purchase as it is written before the processor is asked (`processing`, cancellable until the charge). */
export const newPurchaseRow = (purchase: {
  clientId: string;
  personId: string;
  quoteId: string;
  email: string;
  grandTotalCents: number;
  now: Date;
}): NewPurchaseRow => ({
  id: randomId("pur_"),
  clientId: purchase.clientId,
  personId: purchase.personId,
  quoteId: purchase.quoteId,
  email: purchase.email,
  grandTotalCents: purchase.grandTotalCents,
  status: "processing",
  reason: null,
  cancelledBy: null,
  orderNumber: null,
  chargesAt: null,
  cancelUntil: new Date(purchase.now.getTime() + chargeDelayMs),
  createdAt: purchase.now,
});

/** The quote's unique index refuses a second purchase of it. */
export const asRefusal = (error: unknown) =>
  isUniqueViolation(error)
    ? new AppError("quote_already_purchased", {
        message: "This quote was already bought; create a new quote.",
      })
    : error;

/**
 * Asks the processor for the hold, outside any transaction. A create the processor refused itself
 * (review M4) made nothing, so nothing is held: that is an answer too.
 */
export const askForHold = async (
  db: Db,
  provider: PaymentProvider,
  opened: OpenedPurchase,
  seam: TestSeam = {},
): Promise<PurchaseAnswer> => {
  const result = await authorizePayment(db, provider, {
    payment: opened.payment,
    method: opened.method,
    description: `Purchase ${opened.id}`,
  }).catch((error: unknown) => {
    // The processor refused the create itself (review M4): nothing was made, so nothing is held.
    if (isProcessorRefusal(error))
      return { kind: "refused_by_processor" as const, reason: error.reason };
    throw error;
  });
  await seam.afterAuthorize?.(opened.id);
  return result;
};

/** Tries at recording a hold under a fresh order number before the clash is an error (each clash has odds of about 2^-40 per number in use). */
const orderNumberAttempts = 5;
const isOrderNumberClash = (error: unknown) =>
  isUniqueViolation(error) &&
  ["purchases_order_number_key", "orders_number_key"].includes(
    (error as { constraint?: string }).constraint ?? "",
  );

type AnsweredPurchase = Omit<OpenedPurchase, "method" | "payment"> & {
  payment: Omit<HeldPayment, "processorPaymentId">;
  result: PurchaseAnswer;
  /** Tests only: the order-number generator (newOrderNumber). */
  orderNumbers?: () => string;
};

/**
 * Records the bank's answer to a purchase's authorize: a hold → held (order number, charges_at and
 * cancel_until, the copy email, the held event); a decline or an authentication step (released at
 * once: nobody is there off-session) → requires_person. An unknown answer leaves it processing.
 * If the purchase already left processing (the reconciliation refused it after a very slow answer),
 * the hold is recorded on the payment only, and the reconciliation releases it (a hold under a
 * closed purchase). Also used when a late answer is learnt afterwards (complete-late-authorize.ts).
 * Given `keyed` (POST /purchases, a watch), the final answer is stored under its key in the same
 * transaction and returned; undefined otherwise.
 */
export const recordAuthorizeAnswer = async (
  db: Db,
  provider: PaymentProvider,
  answered: AnsweredPurchase,
  keyed?: KeyRequest,
): Promise<KeyedAnswer | undefined> => {
  const { id, payment, result, now, chargesAt } = answered;
  if (result.kind === "authorized") {
    const nextNumber = answered.orderNumbers ?? newOrderNumber;
    const recordHold = () =>
      sqlTransaction(async (sql) => {
        await recordAuthorizedHold(sql, {
          id: payment.id,
          processorPaymentId: result.processorPaymentId,
          now,
        });
        const orderNumber = nextNumber();
        const moved = await movePurchase(sql, {
          id,
          event: "hold",
          now,
          held: { orderNumber, chargesAt },
        });
        const copy =
          moved &&
          (await writeCopyEmail(
            sql,
            { ...moved, now, chargesAt, cancelUntil: chargesAt },
            answered.assistant,
            answered.reading,
          ));
        const answer =
          keyed &&
          (await storeAnswerUnderKey(
            sql,
            undefined,
            id,
            keyed,
            moved && { purchase: moved, copy },
          ));
        return { moved, answer };
      });
    // An order number is 40 random bits: the unique indexes catch the rare clash with another
    // purchase's or checkout's number, and the record is written again under a new one (review L8;
    // the transaction rolled back whole, the key's answer with it).
    for (let attempt = 1; ; attempt++) {
      try {
        const { moved, answer } = await recordHold();
        if (moved) notifyPurchaseHeld(id);
        return answer;
      } catch (error) {
        if (attempt >= orderNumberAttempts || !isOrderNumberClash(error)) throw error;
      }
    }
  }
  if (result.kind === "unknown" && !keyed) return;
  const answer = await inTransaction(db, async (tx) => {
    if (result.kind === "refused_by_processor")
      await recordRefusedAuthorize(tx, { id: payment.id, reason: result.reason, now });
    const move = moveOfAnswer(result);
    if (move) await movePurchase(tx, { id, now, ...move });
    return keyed && storeAnswerUnderKey(tx, tx, id, keyed);
  });
  // Nobody is there to authenticate off-session: the person pays through a checkout link instead.
  // The hold waiting for that step is released once the answer is recorded; a release the processor
  // fails is left to reconciliation's pass over holds under closed purchases (reconcile-purchases.ts).
  if (result.kind === "requires_action")
    await releasePayment(db, provider, {
      ...payment,
      processorPaymentId: result.processorPaymentId,
    }).catch((error: unknown) =>
      logger.warn(
        { purchase_id: id, err: error },
        "purchases: releasing the hold that awaited authentication failed; reconciliation retries it",
      ),
    );
  return answer;
};
