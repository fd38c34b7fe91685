/**
 * Creating a purchase and its hold, in three steps so that a crash anywhere leaves something the
 * reconciliation (reconcile-purchases.ts) can finish, and never an unrecorded hold:
 * 1. one short transaction writes the purchase (`processing`) and its payment (`authorizing`), so
 *    the row exists before the processor is asked (a hold always has a row to find it by); raw SQL
 *    on a `pg` client (server/platform/sql.ts): it runs once per purchase with a dozen statements;
 * 2. the processor is asked for the hold with key `pur_x:authorize`, outside any transaction (a slow
 *    bank holds no database connection or lock; a retry replays, never a second hold);
 * 3. one short transaction records the answer: held (order number, charges_at, the copy email with
 *    the cancel link), or requires_person (declined, or the bank wants the person). An unknown
 *    answer (transport errors only) leaves the purchase `processing` for reconciliation; a create
 *    the processor refused itself (ProcessorRefusedError) made nothing: requires_person for a saved
 *    card it no longer has, refused (processor_refused) for our key or permissions.
 * POST /purchases claims its Idempotency-Key, stages its crash answer and checks the person, quote,
 * limits and store rules in the first transaction (beforeInsert), and stores its final answer in the
 * third (withAnswer).
 */
import { randomId } from "../core/ids";
import type { Db, Tx } from "../platform/db";
import { AppError } from "../core/errors";
import { authorizePayment, openPayment, releasePayment } from "../payments";
import {
  isProcessorRefusal,
  type PaymentMethod,
  type PaymentProvider,
  type ProcessorRefusal,
} from "../payments";
import { newOrderNumber } from "../checkout";
import { notifyPurchaseHeld } from "../platform/jobs/events";
import { movePurchase } from "./purchase-writer";
import { writeCopyEmail } from "./purchase-emails";
import type { AuthorizeResult, HeldPayment } from "../payments";
import { Prisma } from "../generated/prisma/client";
import { isUniqueViolation, type Sql, sqlTransaction } from "../platform/sql";
import type { PurchaseRow } from "./purchase-view";

type SavedCardMethod = Extract<PaymentMethod, { type: "saved" }>;
/** The saved card a purchase holds, and its last four digits for the payment row. */
type HeldCard = { method: SavedCardMethod; cardLast4: string | null };

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
  /** The person's saved card (off-session), unless afterInsert reads it under the person's lock (POST /purchases). */
  method?: SavedCardMethod;
  cardLast4?: string | null;
  now: Date;
  /**
   * Runs first in the transaction that writes the purchase: POST /purchases claims its
   * Idempotency-Key there. Throwing rolls everything back.
   */
  claim?: (sql: Sql) => Promise<void>;
  /**
   * Given with `claim`: a refusal thrown after the claim (by the hooks below or the purchase's
   * insert) rolls the transaction back to a savepoint taken after the claim, and this stores it
   * under the still-claimed key; true commits that (and the refusal is thrown after the commit),
   * false rolls the whole transaction back. One key, one answer (review L4): a refusal never lets
   * go of the key, so a concurrent same-key request waiting on the claim gets it replayed.
   */
  keepRefusal?: (sql: Sql, refusal: AppError) => Promise<boolean>;
  /**
   * Runs in the transaction that writes the purchase, before the processor is asked, with the
   * purchase as it will be written (`processing`): POST /purchases reserves and stages its crash
   * answer there. Throwing (here or in afterInsert) refuses with nothing written.
   */
  beforeInsert?: (sql: Sql, purchase: PurchaseRow) => Promise<void>;
  /**
   * Runs in that transaction with the purchase written, before its payment: POST /purchases locks
   * the person's row there, checks what other purchases change (its own left out) and returns the
   * saved card it read under that lock (review L14: a card removed meanwhile is never held; the
   * removal takes the same lock).
   */
  afterInsert?: (sql: Sql, purchase: PurchaseRow) => Promise<HeldCard | void>;
  /** Runs in the transaction that records the bank's answer, with the purchase as recorded (still `processing` when the answer is unknown). */
  withAnswer?: AnswerHook;
  /** Tests only: runs between the processor's answer and our record of it (a crash there). */
  afterAuthorize?: (purchaseId: string) => Promise<void>;
  /** Tests only: the order numbers to try (newOrderNumber), so a test can make one clash. */
  orderNumbers?: () => string;
};

/** A purchase's columns as `PurchaseRow` names them, for RETURNING. */
const purchaseRowSql = Prisma.sql`id, status::text AS status, reason, cancelled_by AS "cancelledBy", order_number AS "orderNumber", grand_total_cents AS "grandTotalCents",
  charges_at AS "chargesAt", cancel_until AS "cancelUntil", created_at AS "createdAt"`;

/** Tries at recording a hold under a fresh order number before the clash is an error (each clash has odds of about 2^-40 per number in use). */
const orderNumberAttempts = 5;
const isOrderNumberClash = (error: unknown) =>
  isUniqueViolation(error) &&
  ["purchases_order_number_key", "orders_number_key"].includes(
    (error as { constraint?: string }).constraint ?? "",
  );

/** The purchase as the answer's transaction recorded it. */
export type AnsweredRow = PurchaseRow & { reason: string | null };
/** Runs in the transaction that records the bank's answer; `prisma` is that transaction's Prisma client when it is one (every answer but a hold). */
type AnswerHook = (sql: Sql, purchase: AnsweredRow, prisma?: Tx) => Promise<void>;

/** Writes, holds and records the purchase; its id (read it for what was recorded). */
export const createPurchaseWithHold = async (
  db: Db,
  provider: PaymentProvider,
  input: NewPurchase,
): Promise<string> => {
  const { now } = input;
  const id = randomId("pur_");
  const chargesAt = new Date(now.getTime() + chargeDelayMs);
  const purchase: PurchaseRow = {
    id,
    status: "processing",
    reason: null,
    cancelledBy: null,
    orderNumber: null,
    grandTotalCents: input.grandTotalCents,
    chargesAt: null,
    cancelUntil: chargesAt,
    createdAt: now,
  };
  const written = await sqlTransaction(async (sql) => {
    await input.claim?.(sql);
    if (input.keepRefusal) await sql.$executeRaw`SAVEPOINT purchase_rules`;
    try {
      await input.beforeInsert?.(sql, purchase);
      await sql.$executeRaw`
        INSERT INTO purchases (id, client_id, person_id, quote_id, email, grand_total_cents, status, cancel_until, created_at, updated_at)
        VALUES (${id}, ${input.clientId}, ${input.personId}, ${input.quoteId}, ${input.email}, ${purchase.grandTotalCents}::int, ${purchase.status}::"PurchaseStatus", ${purchase.cancelUntil}, ${now}, ${now})`;
      const card =
        (await input.afterInsert?.(sql, purchase)) ??
        (input.method ? { method: input.method, cardLast4: input.cardLast4 ?? null } : null);
      if (!card) throw new Error(`purchase ${id}: no saved card to hold`);
      const opened = await openPayment(sql, {
        owner: { kind: "purchase", id },
        method: "saved",
        amountCents: input.grandTotalCents,
        cardLast4: card.cardLast4,
        now,
      });
      return { payment: opened, method: card.method };
    } catch (error) {
      const refusal = isUniqueViolation(error)
        ? new AppError("quote_already_purchased", {
            message: "This quote was already bought; create a new quote.",
          })
        : error;
      // Only a refusal (an AppError) is kept: a database error (a cut connection, lock_timeout) rolls back as it came.
      if (!input.keepRefusal || !(refusal instanceof AppError)) throw refusal;
      await sql.$executeRaw`ROLLBACK TO SAVEPOINT purchase_rules`;
      if (!(await input.keepRefusal(sql, refusal))) throw refusal;
      return { refusal };
    }
  });
  if ("refusal" in written) throw written.refusal;
  const { payment, method } = written;
  const result: PurchaseAnswer = await authorizePayment(db, provider, {
    payment,
    method,
    description: `Purchase ${id}`,
  }).catch((error: unknown) => {
    // The processor refused the create itself (review M4): nothing was made, so nothing is held.
    if (isProcessorRefusal(error))
      return { kind: "refused_by_processor" as const, reason: error.reason };
    throw error;
  });
  await input.afterAuthorize?.(id);
  await recordAuthorizeAnswer(
    db,
    provider,
    {
      id,
      email: input.email,
      grandTotalCents: input.grandTotalCents,
      assistant: input.assistant,
      payment,
      result,
      now,
      chargesAt,
      orderNumbers: input.orderNumbers,
    },
    input.withAnswer,
  );
  return id;
};

/** The processor's answer to a purchase's authorize, or its refusal of the create itself (no payment made, nothing held). */
type PurchaseAnswer = AuthorizeResult | { kind: "refused_by_processor"; reason: ProcessorRefusal };

/**
 * Where an answer other than a hold moves the purchase: requires_person for a decline, an
 * authentication step, or a saved card the processor no longer has (answered 409
 * card_not_on_this_account); refused (processor_refused) when the processor refused our request
 * (key, permissions): no checkout link would fare better. Null while the answer is unknown.
 */
const moveOfAnswer = (
  result: Exclude<PurchaseAnswer, { kind: "authorized" }>,
): { event: "needs_person" | "refuse"; reason: string } | null => {
  switch (result.kind) {
    case "unknown":
      return null;
    case "requires_action":
      return { event: "needs_person", reason: "authentication_required" };
    case "declined":
      return { event: "needs_person", reason: result.declineCode ?? "card_declined" };
    case "refused_by_processor":
      return {
        event: result.reason === "payment_method_not_found" ? "needs_person" : "refuse",
        reason: result.reason,
      };
  }
};

type AnsweredPurchase = {
  id: string;
  email: string;
  grandTotalCents: number;
  assistant: string;
  payment: Omit<HeldPayment, "processorPaymentId">;
  result: PurchaseAnswer;
  now: Date;
  chargesAt: Date;
  /** Tests only: the order-number generator (newOrderNumber). */
  orderNumbers?: () => string;
};

/** The purchase as this transaction recorded it, handed to the caller's hook (POST /purchases stores its answer there). */
const runHook = async (sql: Sql, id: string, hook: AnswerHook | undefined, prisma?: Tx) => {
  if (!hook) return;
  const [purchase] = await sql.$queryRaw<
    AnsweredRow[]
  >`SELECT ${purchaseRowSql} FROM purchases WHERE id = ${id}`;
  await hook(sql, purchase, prisma);
};

/**
 * Records the bank's answer to a purchase's authorize: a hold → held (order number, charges_at and
 * cancel_until, the copy email, the held event); a decline or an authentication step (released at
 * once: nobody is there off-session) → requires_person. An unknown answer leaves it processing.
 * If the purchase already left processing (the reconciliation refused it after a very slow answer),
 * the hold is recorded on the payment only, and the reconciliation releases it (a hold under a
 * closed purchase). Also used when a late answer is learnt afterwards (complete-late-authorize.ts).
 * A hold, every purchase's usual answer, is recorded in a raw `pg` transaction (server/platform/sql.ts); the
 * rarer answers in a Prisma one, which the hook also gets (POST /purchases writes a checkout there).
 */
export const recordAuthorizeAnswer = async (
  db: Db,
  provider: PaymentProvider,
  answered: AnsweredPurchase,
  withAnswer?: AnswerHook,
) => {
  const { id, payment, result, now, chargesAt } = answered;
  if (result.kind === "authorized") {
    const nextNumber = answered.orderNumbers ?? newOrderNumber;
    const recordHold = () =>
      sqlTransaction(async (sql) => {
        // Guarded (reviews M2, H1): a payment still waiting for this answer, or one the reconciliation gave up on
        // whose hold turned up after all (the purchase is then closed, and the sweep releases the hold it records here).
        await sql.$executeRaw`UPDATE payments SET status = 'authorized', processor_payment_id = ${result.processorPaymentId}, updated_at = ${now}
        WHERE id = ${payment.id} AND (status = 'authorizing' OR (status = 'declined' AND decline_code = 'processor_timeout'))`;
        const orderNumber = nextNumber();
        const moved = await movePurchase(sql, {
          id,
          event: "hold",
          now,
          held: { orderNumber, chargesAt },
        });
        if (moved)
          await writeCopyEmail(
            sql,
            {
              id,
              email: answered.email,
              orderNumber,
              grandTotalCents: answered.grandTotalCents,
              chargesAt,
              cancelUntil: chargesAt,
            },
            answered.assistant,
          );
        await runHook(sql, id, withAnswer);
        return moved;
      });
    // An order number is 40 random bits: the unique indexes catch the rare clash with another
    // purchase's or checkout's number, and the record is written again under a new one (review L8;
    // the transaction rolled back whole, the hook's answer with it).
    let held = false;
    for (let attempt = 1; ; attempt++) {
      try {
        held = await recordHold();
        break;
      } catch (error) {
        if (attempt >= orderNumberAttempts || !isOrderNumberClash(error)) throw error;
      }
    }
    if (held) notifyPurchaseHeld(id);
    return;
  }
  // Nobody is there to authenticate off-session: the person pays through a checkout link instead.
  if (result.kind === "requires_action")
    await releasePayment(db, provider, {
      ...payment,
      processorPaymentId: result.processorPaymentId,
    });
  if (result.kind === "unknown" && !withAnswer) return;
  await db.$transaction(async (tx) => {
    if (result.kind === "refused_by_processor") {
      await tx.payment.updateMany({
        where: { id: payment.id, status: "authorizing" },
        data: { status: "declined", declineCode: result.reason, updatedAt: now },
      });
    }
    const move = moveOfAnswer(result);
    if (move) await movePurchase(tx, { id, now, ...move });
    await runHook(tx, id, withAnswer, tx);
  });
};
