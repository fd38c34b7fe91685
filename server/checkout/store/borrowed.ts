/**
 * Checkout's queries of tables other capabilities own, held here until their stores offer them
 * (ADR 0103, "Still crossing"): the `payments` rows of a checkout's attempts (server/payments owns
 * the table and its state; its store is being written) and a person's email (server/accounts).
 * Each function is to become a call through that capability's index.ts; none is a new query.
 * Prisma, as the use cases calling them were.
 */
import { captureDueWhere } from "../../payments";
import type { Db, Tx } from "../../platform/db";

type Client = Db | Tx;

const attemptSelect = { id: true, checkoutId: true, attempt: true } as const;

/** Rows settlement may ask about now (not backing off). */
const checkDueWhere = (now: Date) => ({
  OR: [{ nextCheckAt: null }, { nextCheckAt: { lte: now } }],
});

/**
 * The processor could not say (or a step failed): the row steps out of the next batches, asked
 * again after 30 s, doubling each time, at most every 30 minutes. One statement (the right-hand
 * check_attempts is the count before this miss). Not a status write: updated_at stays.
 */
export const askAboutPaymentLater = (db: Db, id: string, now: Date) =>
  db.$executeRaw`UPDATE payments SET check_attempts = check_attempts + 1,
    next_check_at = ${now}::timestamptz + LEAST(30 * power(2, check_attempts), 1800) * interval '1 second' WHERE id = ${id}`;

/** The checkout attempt the processor knows as `processorPaymentId` (null when none). */
export const findAttemptByProcessorId = (db: Db, processorPaymentId: string) =>
  db.payment.findFirst({
    where: { processorPaymentId, checkoutId: { not: null } },
    select: { ...attemptSelect, status: true },
  });

/** A checkout's attempt by id (null when not this checkout's). */
export const findCheckoutAttempt = (db: Db, options: { id: string; checkoutId: string }) =>
  db.payment.findFirst({
    where: { id: options.id, checkoutId: options.checkoutId },
    select: { ...attemptSelect, status: true, processorPaymentId: true },
  });

/** True when `processorPaymentId` is one of the checkout's attempts. */
export const isCheckoutIntent = async (
  db: Db,
  options: { checkoutId: string; processorPaymentId: string },
) => (await db.payment.count({ where: options })) > 0;

/** The checkout's attempt waiting for the person's authentication, if any. */
export const findAttemptAwaitingPerson = (db: Db, checkoutId: string) =>
  db.payment.findFirst({
    where: { checkoutId, status: "requires_action" },
    select: { id: true },
  });

/** Records the card's last four digits once. */
export const recordCardLast4 = (db: Db, id: string, cardLast4: string) =>
  db.payment.updateMany({ where: { id, cardLast4: null }, data: { cardLast4 } });

type PaymentStatus = NonNullable<Awaited<ReturnType<typeof findAttemptByProcessorId>>>["status"];

/**
 * Moves the attempt from one of `from` to `to` with `data` (guarded: an attempt another path
 * already moved stays as it is); true when it moved.
 */
export const moveAttempt = async (
  db: Client,
  move: {
    id: string;
    from: readonly PaymentStatus[];
    to: PaymentStatus;
    processorPaymentId?: string;
    declineCode?: string | null;
  },
) =>
  (
    await db.payment.updateMany({
      where: {
        id: move.id,
        status: move.from.length === 1 ? move.from[0] : { in: [...move.from] },
      },
      data: {
        status: move.to,
        ...(move.processorPaymentId === undefined
          ? {}
          : { processorPaymentId: move.processorPaymentId }),
        ...(move.declineCode === undefined ? {} : { declineCode: move.declineCode }),
      },
    })
  ).count === 1;

/** How many of the checkout's attempts are with the processor or the person now. */
export const countAttemptsInFlight = (tx: Tx, checkoutId: string) =>
  tx.payment.count({
    where: { checkoutId, status: { in: ["authorizing", "requires_action"] } },
  });

/** How many of the checkout's attempts are with the processor, started after `since`. */
export const countAttemptsAuthorizingSince = (tx: Tx, checkoutId: string, since: Date) =>
  tx.payment.count({
    where: { checkoutId, status: "authorizing", updatedAt: { gt: since } },
  });

/**
 * Attempts closed as `declined` that no bank declined: the processor never answered
 * (processor_timeout), or refused our own request before asking one (processor_refused, a rolled
 * key; payment_method_not_found). They do not count toward a checkout's declines.
 */
const notTheBanks = ["processor_timeout", "processor_refused", "payment_method_not_found"];

/** How many of the checkout's attempts were declined by the bank. */
export const countDeclines = (tx: Tx, checkoutId: string) =>
  tx.payment.count({
    where: {
      checkoutId,
      status: "declined",
      OR: [{ declineCode: null }, { declineCode: { notIn: notTheBanks } }],
    },
  });

/** How many attempts the checkout has had. */
export const countAttempts = (tx: Tx, checkoutId: string) =>
  tx.payment.count({ where: { checkoutId } });

/** Voids the checkout's attempts waiting for the person; returns them (their intents are to be cancelled). */
export const voidAttemptsAwaitingPerson = async (tx: Tx, checkoutId: string) => {
  const abandoned = await tx.payment.findMany({
    where: { checkoutId, status: "requires_action" },
    select: { ...attemptSelect, processorPaymentId: true },
  });
  await tx.payment.updateMany({
    where: { id: { in: abandoned.map((row) => row.id) }, status: "requires_action" },
    data: { status: "voided" },
  });
  return abandoned;
};

const ownerSelect = { ...attemptSelect, purchaseId: true, processorPaymentId: true } as const;

/** Checkout attempts left `authorizing` since before `stale` and not backing off, oldest first. */
export const findLostAttempts = (db: Db, options: { stale: Date; now: Date; take: number }) =>
  db.payment.findMany({
    where: {
      status: "authorizing",
      updatedAt: { lt: options.stale },
      checkoutId: { not: null },
      ...checkDueWhere(options.now),
    },
    select: { ...ownerSelect, createdAt: true },
    orderBy: { createdAt: "asc" },
    take: options.take,
  });

/** Checkout holds left `authorized` since before `stale`, due for a capture try, oldest first. */
export const findHeldAttempts = (db: Db, options: { stale: Date; now: Date; take: number }) =>
  db.payment.findMany({
    where: {
      status: "authorized",
      updatedAt: { lt: options.stale },
      processorPaymentId: { not: null },
      checkoutId: { not: null },
      AND: [checkDueWhere(options.now), captureDueWhere(options.now)],
    },
    select: ownerSelect,
    orderBy: { createdAt: "asc" },
    take: options.take,
  });

/** Checkout attempts left awaiting the person since before `stale` and not backing off, oldest first. */
export const findOpenIntents = (db: Db, options: { stale: Date; now: Date; take: number }) =>
  db.payment.findMany({
    where: {
      status: "requires_action",
      checkoutId: { not: null },
      processorPaymentId: { not: null },
      updatedAt: { lt: options.stale },
      ...checkDueWhere(options.now),
    },
    select: { ...attemptSelect, processorPaymentId: true },
    orderBy: { createdAt: "asc" },
    take: options.take,
  });

/** A person's id and email (null when there is no such person). */
export const findPersonEmail = (tx: Tx, id: string) =>
  tx.person.findUnique({ where: { id }, select: { id: true, email: true } });
