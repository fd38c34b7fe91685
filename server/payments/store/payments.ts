/**
 * The queries of the `payments` table: one row per attempt to take money, owned by a checkout
 * attempt or an assistant purchase. Prisma for the guarded status writes (off the hot path: they
 * follow a processor call that costs far more), raw SQL for `openPayment`, which POST /purchases
 * runs in its `pg` transaction (docs/adr/0014-raw-sql-on-hot-paths.md, 0062), and for the counter
 * that must return its new value in the same statement.
 */
import { randomId } from "../../core/ids";
import type { Prisma } from "../../generated/prisma/client";
import type { Db, Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import type { PaymentOwner, ProcessorPayment } from "../provider";

type Client = Db | Tx;

/**
 * Opens a payment in `authorizing`; the owner union makes "exactly one owner" hold by construction
 * (and the trigger in SQL). Raw SQL, so that POST /purchases can run it in its `pg` transaction.
 */
export const openPayment = async (
  tx: Sql,
  options: {
    owner: PaymentOwner;
    method: string;
    amountCents: number;
    /** The card's last four digits, or a SQL expression giving them when the statement runs. */
    cardLast4: string | null | Prisma.Sql;
    now: Date;
  },
) => {
  const { owner, now } = options;
  const [checkoutId, purchaseId, attempt] =
    owner.kind === "checkout" ? [owner.id, null, owner.attempt] : [null, owner.id, 1];
  const [payment] = await tx.$queryRaw<
    {
      id: string;
      checkoutId: string | null;
      purchaseId: string | null;
      attempt: number;
      amountCents: number;
    }[]
  >`
    INSERT INTO payments (id, checkout_id, purchase_id, attempt, method, status, amount_cents, card_last4, created_at, updated_at)
    VALUES (${randomId("pay_")}, ${checkoutId}, ${purchaseId}, ${attempt}::int, ${options.method}, 'authorizing', ${options.amountCents}::int, ${options.cardLast4}, ${now}, ${now})
    RETURNING id, checkout_id AS "checkoutId", purchase_id AS "purchaseId", attempt, amount_cents AS "amountCents"`;
  return payment;
};

/** An authorize the processor declined, recorded only while the attempt still waits for it. */
export const recordDeclinedAuthorize = (
  db: Client,
  options: { id: string; declineCode: string | null; processorPaymentId: string; now?: Date },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: "authorizing" },
    data: {
      status: "declined",
      declineCode: options.declineCode,
      processorPaymentId: options.processorPaymentId,
      ...(options.now && { updatedAt: options.now }),
    },
  });

/** An authorize that needs the person's authentication step, recorded only while the attempt still waits for it. */
export const recordAuthorizeNeedsAction = (
  db: Client,
  options: { id: string; processorPaymentId: string; now?: Date },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: "authorizing" },
    data: {
      status: "requires_action",
      processorPaymentId: options.processorPaymentId,
      ...(options.now && { updatedAt: options.now }),
    },
  });

/** A failed authentication step: the payment waiting for it is declined. */
export const recordFailedAuthentication = (
  db: Client,
  options: { id: string; declineCode: string | null },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: "requires_action" },
    data: { status: "declined", declineCode: options.declineCode },
  });

/** When the payment's next capture may be tried (null: now); null when there is no such payment. */
export const readNextCaptureAt = (db: Client, id: string) =>
  db.payment.findUnique({ where: { id }, select: { nextCaptureAt: true } });

/** The processor captured the held payment (guarded by `authorized`). */
export const recordCaptured = (db: Client, id: string) =>
  db.payment.updateMany({
    where: { id, status: "authorized" },
    data: { status: "captured", nextCaptureAt: null },
  });

/** The processor reports the hold gone at capture: nothing can be charged. */
export const recordHoldReleasedAtCapture = (db: Client, id: string) =>
  db.payment.updateMany({
    where: { id, status: "authorized" },
    data: { status: "capture_failed", declineCode: "hold_released", nextCaptureAt: null },
  });

/** Counts one unanswered capture of an `authorized` payment; its new count, or undefined when it is settled already. */
export const countUnansweredCapture = async (db: Client, id: string, now: Date) => {
  const [row] = await db.$queryRaw<{ attempts: number }[]>`
    UPDATE payments SET capture_attempts = capture_attempts + 1, updated_at = ${now} WHERE id = ${id} AND status = 'authorized' RETURNING capture_attempts AS attempts`;
  return row?.attempts;
};

/** When the next capture of an `authorized` payment may be tried. */
export const scheduleNextCapture = (db: Client, id: string, at: Date) =>
  db.payment.updateMany({ where: { id, status: "authorized" }, data: { nextCaptureAt: at } });

/** No capture is tried again: the retries ran out. */
export const recordCaptureRetriesExhausted = async (db: Client, id: string) =>
  (
    await db.payment.updateMany({
      where: { id, status: "authorized" },
      data: {
        status: "capture_failed",
        declineCode: "capture_retries_exhausted",
        nextCaptureAt: null,
      },
    })
  ).count;

/** Statuses a release may end: anything that may still hold money, and an attempt settlement gave up on whose hold turned up. */
const releasable = ["authorizing", "requires_action", "authorized", "declined"] as const;

/** Records what a release found (`voided`, or `captured` after all) on a payment that may still hold money. */
export const recordReleaseOutcome = (
  db: Client,
  options: { id: string; status: "captured" | "voided" },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: { in: [...releasable] } },
    data: { status: options.status },
  });

/**
 * A release the processor failed, of a hold no attempt needs any more (the attempt already voided or
 * declined here): the sweep tries it again from `at` (`findReleasesDue`).
 */
export const recordReleaseDue = (db: Client, id: string, at: Date) =>
  db.payment.updateMany({ where: { id }, data: { releaseDueAt: at } });

/** The release was made (or found made): nothing is due any more. */
export const clearReleaseDue = (db: Client, id: string) =>
  db.payment.updateMany({ where: { id }, data: { releaseDueAt: null } });

/** Payments whose release is due at `now`, the longest due first. */
export const findReleasesDue = async (db: Client, options: { now: Date; take: number }) =>
  (
    await db.payment.findMany({
      where: { releaseDueAt: { lte: options.now }, processorPaymentId: { not: null } },
      select: purchasePaymentSelect,
      orderBy: { releaseDueAt: "asc" },
      take: options.take,
    })
  ).map((payment) => ({ ...payment, processorPaymentId: payment.processorPaymentId! }));

/** A payment whose next capture may be tried at `now` (Prisma filter, for the sweeps' queries). */
export const captureDueWhere = (now: Date) => ({
  OR: [{ nextCaptureAt: null }, { nextCaptureAt: { lte: now } }],
});

/** The processor reports the held payment captured (a Stripe event): recorded if it was still `authorized`. */
export const recordCapturedByProcessor = async (db: Client, id: string, now: Date) =>
  (
    await db.payment.updateMany({
      where: { id, status: "authorized" },
      data: { status: "captured", updatedAt: now },
    })
  ).count === 1;

/** The processor reports the hold cancelled (a Stripe event): recorded if it could still hold money. */
export const recordVoidedByProcessor = async (db: Client, id: string, now: Date) =>
  (
    await db.payment.updateMany({
      where: { id, status: { in: ["authorized", "requires_action"] } },
      data: { status: "voided", updatedAt: now },
    })
  ).count === 1;

export type PaymentOfIntent = {
  id: string;
  checkoutId: string | null;
  purchaseId: string | null;
  attempt: number;
  status: string;
  processorPaymentId: string;
};

const paymentOfIntentSelect = {
  id: true,
  checkoutId: true,
  purchaseId: true,
  attempt: true,
  status: true,
  processorPaymentId: true,
} as const;

/**
 * The payment a processor payment (a Stripe PaymentIntent) pays: the row that recorded its id,
 * else (the authorize's answer was lost, so no row has the id yet) the row its authorize key
 * names, which then records the id.
 */
export const findPaymentOfIntent = async (
  db: Client,
  options: { paymentIntentId: string; owner: PaymentOwner | null },
): Promise<PaymentOfIntent | null> => {
  const { paymentIntentId, owner } = options;
  const recorded = await db.payment.findFirst({
    where: { processorPaymentId: paymentIntentId },
    select: paymentOfIntentSelect,
  });
  if (recorded) return { ...recorded, processorPaymentId: paymentIntentId };
  if (!owner) return null;
  const row = await db.payment.findFirst({
    where:
      owner.kind === "purchase"
        ? { purchaseId: owner.id }
        : { checkoutId: owner.id, attempt: owner.attempt },
    select: paymentOfIntentSelect,
  });
  // A row that recorded another PaymentIntent is not this one's.
  if (!row || row.processorPaymentId !== null) return null;
  const { count } = await db.payment.updateMany({
    where: { id: row.id, processorPaymentId: null },
    data: { processorPaymentId: paymentIntentId },
  });
  return count === 1
    ? { ...row, processorPaymentId: paymentIntentId }
    : findPaymentOfIntent(db, { paymentIntentId, owner: null });
};

/**
 * Every payment whose capture failed (oldest first, at most 500), with the order number and email
 * of what it paid for. The two are read through the payment's relations to its checkout or
 * purchase (one query each, for the operator's list), not through those capabilities.
 */
export const listFailedCaptures = (db: Client) =>
  db.payment.findMany({
    where: { status: "capture_failed" },
    orderBy: { updatedAt: "asc" },
    take: 500,
    select: {
      id: true,
      checkoutId: true,
      purchaseId: true,
      amountCents: true,
      declineCode: true,
      processorPaymentId: true,
      updatedAt: true,
      checkout: { select: { orderNumber: true, email: true, captureFailedAt: true } },
      purchase: { select: { orderNumber: true, email: true, status: true } },
    },
  });

// An assistant purchase's one payment (purchases calls these through the index).

const purchasePaymentSelect = {
  id: true,
  checkoutId: true,
  purchaseId: true,
  attempt: true,
  processorPaymentId: true,
  status: true,
  createdAt: true,
} as const;

/** The payment of a purchase (one at most); null when it has none. */
export const findPaymentOfPurchase = (db: Client, purchaseId: string) =>
  db.payment.findUnique({ where: { purchaseId }, select: purchasePaymentSelect });

/** Status and decline code of a purchase's payment (what a capture recorded); throws when none. */
export const readPaymentOutcomeOfPurchase = (db: Client, purchaseId: string) =>
  db.payment.findUniqueOrThrow({
    where: { purchaseId },
    select: { status: true, declineCode: true },
  });

/**
 * A purchase's hold, recorded. Guarded (reviews M2, H1): a payment still waiting for this answer,
 * or one the reconciliation gave up on whose hold turned up after all (the purchase is then
 * closed, and the sweep releases the hold recorded here). Raw SQL: it runs in POST /purchases' `pg`
 * transaction.
 */
export const recordAuthorizedHold = (
  sql: Sql,
  options: { id: string; processorPaymentId: string; now: Date },
) => sql.$executeRaw`UPDATE payments SET status = 'authorized', processor_payment_id = ${options.processorPaymentId}, updated_at = ${options.now}
  WHERE id = ${options.id} AND (status = 'authorizing' OR (status = 'declined' AND decline_code = 'processor_timeout'))`;

/** An authorize the processor refused itself (nothing made): declined with its reason, while still waiting. */
export const recordRefusedAuthorize = (
  db: Client,
  options: { id: string; reason: string; now: Date },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: "authorizing" },
    data: { status: "declined", declineCode: options.reason, updatedAt: options.now },
  });

/**
 * What the reconciliation found of an authorize nobody answered (the processor's payment, or none:
 * declined processor_timeout), recorded only while the payment still waits for it.
 */
export const recordAuthorizeLookup = (
  db: Client,
  options: {
    id: string;
    found: Pick<ProcessorPayment, "id" | "status" | "declineCode"> | null;
    now: Date;
  },
) =>
  db.payment.updateMany({
    where: { id: options.id, status: "authorizing" },
    data: {
      status: options.found?.status ?? "declined",
      processorPaymentId: options.found?.id ?? null,
      declineCode: options.found ? options.found.declineCode : "processor_timeout",
      updatedAt: options.now,
    },
  });

/**
 * Payments still holding money under a purchase that closed without a charge (the process stopped
 * after the move and before the release), a batch. The purchase's status is read through the
 * relation, one query for the sweep (as listFailedCaptures reads what a payment paid for).
 */
export const listHoldsOfClosedPurchases = async (db: Client, take: number) =>
  (
    await db.payment.findMany({
      where: {
        status: { in: ["authorized", "requires_action"] },
        processorPaymentId: { not: null },
        purchase: { status: { in: ["cancelled", "refused", "requires_person"] } },
      },
      select: purchasePaymentSelect,
      take,
    })
  ).map((payment) => ({ ...payment, processorPaymentId: payment.processorPaymentId! }));
