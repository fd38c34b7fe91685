/**
 * Creating a purchase and its hold, in three steps so that a crash anywhere leaves something the
 * reconciliation (reconcile-purchases.ts) can finish, and never an unrecorded hold:
 * 1. one short transaction writes the purchase (`processing`) and its payment (`authorizing`), so
 *    the row exists before the processor is asked (a hold always has a row to find it by); raw SQL
 *    on a `pg` client (server/sql.ts): it runs once per purchase with a dozen statements;
 * 2. the processor is asked for the hold with key `pur_x:authorize`, outside any transaction (a slow
 *    bank holds no database connection or lock; a retry replays, never a second hold);
 * 3. one short transaction records the answer: held (order number, charges_at, the copy email with
 *    the cancel link), or requires_person (declined, or the bank wants the person). An unknown
 *    answer leaves the purchase `processing` for reconciliation.
 * POST /purchases claims its Idempotency-Key, stages its crash answer and checks the person, quote,
 * limits and store rules in the first transaction (beforeInsert), and stores its final answer in the
 * third (withAnswer).
 */
import { randomId } from "../auth/tokens";
import type { Db, Tx } from "../db";
import { AppError } from "../errors";
import { authorizePayment, openPayment, releasePayment } from "../payments/payment-steps";
import type { PaymentMethod, PaymentProvider } from "../payments/provider";
import { newOrderNumber } from "../orders/store-orders";
import { notifyPurchaseHeld } from "../jobs/events";
import { movePurchase } from "./purchase-writer";
import { writeCopyEmail } from "./purchase-emails";
import type { AuthorizeResult, HeldPayment } from "../payments/payment-steps";
import { Prisma } from "../generated/prisma/client";
import { isUniqueViolation, type Sql, sqlTransaction } from "../sql";
import type { PurchaseRow } from "../routers/purchases/purchase-view";

/** 24 hours between the hold and the charge (the reference's "Purchase charge delay"). */
export const chargeDelayMs = 24 * 3_600_000;

export type NewPurchase = {
  clientId: string;
  /** The assistant's name, for the copy email. */
  assistant: string;
  personId: string;
  email: string;
  quoteId: string;
  grandTotalCents: number;
  /** The person's saved card (off-session). */
  method: Extract<PaymentMethod, { type: "saved" }>;
  cardLast4: string | null;
  now: Date;
  /**
   * Runs first in the transaction that writes the purchase, before the processor is asked, with the
   * purchase as it will be written (`processing`): POST /purchases claims its key, reserves and
   * stages its crash answer there. Throwing (here or in afterInsert) refuses with nothing written.
   */
  beforeInsert?: (sql: Sql, purchase: PurchaseRow) => Promise<void>;
  /**
   * Runs last in that transaction, with the purchase and its payment written: POST /purchases locks
   * the person's row there and checks what other purchases change (its own left out).
   */
  afterInsert?: (sql: Sql, purchase: PurchaseRow) => Promise<void>;
  /** Runs in the transaction that records the bank's answer, with the purchase as recorded (still `processing` when the answer is unknown). */
  withAnswer?: AnswerHook;
  /** Tests only: runs between the processor's answer and our record of it (a crash there). */
  afterAuthorize?: (purchaseId: string) => Promise<void>;
};

/** A purchase's columns as `PurchaseRow` names them, for RETURNING. */
const purchaseRowSql = Prisma.sql`id, status::text AS status, reason, cancelled_by AS "cancelledBy", order_number AS "orderNumber", grand_total_cents AS "grandTotalCents",
  charges_at AS "chargesAt", cancel_until AS "cancelUntil", created_at AS "createdAt"`;

/** The purchase as the answer's transaction recorded it. */
export type AnsweredRow = PurchaseRow & { reason: string | null };
/** Runs in the transaction that records the bank's answer; `prisma` is that transaction's Prisma client when it is one (every answer but a hold). */
type AnswerHook = (sql: Sql, purchase: AnsweredRow, prisma?: Tx) => Promise<void>;

/** Writes, holds and records the purchase; its id (read it for what was recorded). */
export const createPurchaseWithHold = async (db: Db, provider: PaymentProvider, input: NewPurchase): Promise<string> => {
  const { now } = input;
  const id = randomId("pur_");
  const chargesAt = new Date(now.getTime() + chargeDelayMs);
  const purchase: PurchaseRow = { id, status: "processing", reason: null, cancelledBy: null, orderNumber: null, grandTotalCents: input.grandTotalCents, chargesAt: null, cancelUntil: chargesAt, createdAt: now };
  const payment = await sqlTransaction(async (sql) => {
    await input.beforeInsert?.(sql, purchase);
    await sql.$executeRaw`
      INSERT INTO purchases (id, client_id, person_id, quote_id, email, grand_total_cents, status, cancel_until, created_at, updated_at)
      VALUES (${id}, ${input.clientId}, ${input.personId}, ${input.quoteId}, ${input.email}, ${purchase.grandTotalCents}::int, ${purchase.status}::"PurchaseStatus", ${purchase.cancelUntil}, ${now}, ${now})`;
    const opened = await openPayment(sql, { owner: { kind: "purchase", id }, method: "saved", amountCents: input.grandTotalCents, cardLast4: input.cardLast4, now });
    await input.afterInsert?.(sql, purchase);
    return opened;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new AppError("quote_already_purchased", { message: "This quote was already bought; create a new quote." });
    throw error;
  });
  const result = await authorizePayment(db, provider, { payment, method: input.method, description: `Purchase ${id}` });
  await input.afterAuthorize?.(id);
  await recordAuthorizeAnswer(db, provider, { id, email: input.email, grandTotalCents: input.grandTotalCents, assistant: input.assistant, payment, result, now, chargesAt }, input.withAnswer);
  return id;
};

type AnsweredPurchase = {
  id: string; email: string; grandTotalCents: number; assistant: string;
  payment: Omit<HeldPayment, "processorPaymentId">; result: AuthorizeResult; now: Date; chargesAt: Date;
};

/** The purchase as this transaction recorded it, handed to the caller's hook (POST /purchases stores its answer there). */
const runHook = async (sql: Sql, id: string, hook: AnswerHook | undefined, prisma?: Tx) => {
  if (!hook) return;
  const [purchase] = await sql.$queryRaw<AnsweredRow[]>`SELECT ${purchaseRowSql} FROM purchases WHERE id = ${id}`;
  await hook(sql, purchase, prisma);
};

/**
 * Records the bank's answer to a purchase's authorize: a hold → held (order number, charges_at and
 * cancel_until, the copy email, the held event); a decline or an authentication step (released at
 * once: nobody is there off-session) → requires_person. An unknown answer leaves it processing.
 * If the purchase already left processing (the reconciliation refused it after a very slow answer),
 * the hold is recorded on the payment only, and the reconciliation releases it (a hold under a
 * closed purchase). Also used when a late answer is learnt afterwards (complete-late-authorize.ts).
 * A hold, every purchase's usual answer, is recorded in a raw `pg` transaction (server/sql.ts); the
 * rarer answers in a Prisma one, which the hook also gets (POST /purchases writes a checkout there).
 */
export const recordAuthorizeAnswer = async (db: Db, provider: PaymentProvider, answered: AnsweredPurchase, withAnswer?: AnswerHook) => {
  const { id, payment, result, now, chargesAt } = answered;
  if (result.kind === "authorized") {
    const held = await sqlTransaction(async (sql) => {
      // Guarded (H1): a payment still waiting for this answer, or one the reconciliation gave up on whose hold turned up after all (it releases it then).
      await sql.$executeRaw`UPDATE payments SET status = 'authorized', processor_payment_id = ${result.processorPaymentId}, updated_at = ${now}
        WHERE id = ${payment.id} AND (status = 'authorizing' OR (status = 'declined' AND decline_code = 'processor_timeout'))`;
      const orderNumber = newOrderNumber();
      const moved = await movePurchase(sql, { id, event: "hold", now, held: { orderNumber, chargesAt } });
      if (moved) await writeCopyEmail(sql, { id, email: answered.email, orderNumber, grandTotalCents: answered.grandTotalCents, chargesAt, cancelUntil: chargesAt }, answered.assistant);
      await runHook(sql, id, withAnswer);
      return moved;
    });
    if (held) notifyPurchaseHeld(id);
    return;
  }
  // Nobody is there to authenticate off-session: the person pays through a checkout link instead.
  if (result.kind === "requires_action") await releasePayment(db, provider, { ...payment, processorPaymentId: result.processorPaymentId });
  if (result.kind === "unknown" && !withAnswer) return;
  await db.$transaction(async (tx) => {
    if (result.kind !== "unknown") {
      await movePurchase(tx, { id, event: "needs_person", now, reason: result.kind === "requires_action" ? "authentication_required" : (result.declineCode ?? "card_declined") });
    }
    await runHook(tx, id, withAnswer, tx);
  });
};
