/**
 * The queries of the `purchases` table, owned by purchases. Raw SQL (typed `Sql`) where POST
 * /purchases runs them in its `pg` transaction: the insert, the writer's move and the purchase read
 * after an answer (docs/adr/0062-purchase-transactions.md); Prisma for the reads and lists of the
 * sweep, the charge, the cancel and the pages, none of them measured hot.
 */
import { Prisma } from "../../generated/prisma/client";
import type { Db, Tx } from "../../platform/db";
import type { Sql } from "../../platform/sql";
import { captureDueWhere } from "../../payments";
import { orderSummary, type QuoteSnapshot, type TShippingAddress } from "../../checkout";
import type { OrderSummary } from "../../core/order-summary";
import type { PurchaseRow } from "../purchase-view";

type Client = Db | Tx;

/** A purchase's columns as `PurchaseRow` names them. */
const purchaseRowSql = Prisma.sql`id, status::text AS status, reason, cancelled_by AS "cancelledBy", order_number AS "orderNumber", grand_total_cents AS "grandTotalCents",
  charges_at AS "chargesAt", cancel_until AS "cancelUntil", created_at AS "createdAt"`;

/** A purchase as written before the processor is asked (`processing`). */
export type NewPurchaseRow = PurchaseRow & {
  clientId: string;
  personId: string;
  quoteId: string;
  email: string;
};

/** Writes the purchase; a second purchase of the quote fails on its unique index (23505). */
export const insertPurchase = (sql: Sql, row: NewPurchaseRow) => sql.$executeRaw`
  INSERT INTO purchases (id, client_id, person_id, quote_id, email, grand_total_cents, status, cancel_until, created_at, updated_at)
  VALUES (${row.id}, ${row.clientId}, ${row.personId}, ${row.quoteId}, ${row.email}, ${row.grandTotalCents}::int, ${row.status}::"PurchaseStatus", ${row.cancelUntil}, ${row.createdAt}, ${row.createdAt})`;

/** The purchase of a quote, if one exists (a quote is bought at most once: its unique index). */
export const findPurchaseOfQuote = async (sql: Sql, quoteId: string) => {
  const [made] = await sql.$queryRaw<
    { id: string }[]
  >`SELECT id FROM purchases WHERE quote_id = ${quoteId}`;
  return made?.id;
};

/** A purchase as a standing order records it: with its quote's unit price and the checkout a requires_person answer made. */
export type RecordedPurchase = {
  id: string;
  status: string;
  reason: string | null;
  orderNumber: string | null;
  grandTotalCents: number;
  chargesAt: Date | null;
  cancelUntil: Date;
  priceCents: number;
  checkoutId: string | null;
  checkoutExpiresAt: Date | null;
};

/** The purchase `purchaseId` as a price watch or a search watch records it (undefined when there is none). */
export const readRecordedPurchase = async (sql: Sql, purchaseId: string) => {
  const [purchase] = await sql.$queryRaw<RecordedPurchase[]>`
    SELECT p.id, p.status::text AS status, p.reason, p.order_number AS "orderNumber", p.grand_total_cents AS "grandTotalCents",
      p.charges_at AS "chargesAt", p.cancel_until AS "cancelUntil",
      COALESCE((q.snapshot #>> '{stores,0,lines,0,unitPriceCents}')::int, 0) AS "priceCents", c.id AS "checkoutId", c.expires_at AS "checkoutExpiresAt"
    FROM purchases p JOIN quotes q ON q.id = p.quote_id
    LEFT JOIN LATERAL (SELECT id, expires_at FROM checkouts WHERE quote_id = q.id ORDER BY created_at DESC LIMIT 1) c ON true
    WHERE p.id = ${purchaseId}`;
  return purchase;
};

/** The purchase as the answer's transaction recorded it. */
export type AnsweredRow = PurchaseRow & { reason: string | null };

/** The purchase as this transaction sees it (after its answer was recorded). */
export const readAnsweredPurchase = async (sql: Sql, id: string) => {
  const [purchase] = await sql.$queryRaw<
    AnsweredRow[]
  >`SELECT ${purchaseRowSql} FROM purchases WHERE id = ${id}`;
  return purchase;
};

/** What a move writes: the columns the state table and the event decide. */
type PurchaseStatusWrite = {
  id: string;
  to: string;
  from: readonly string[];
  now: Date;
  stampColumn: string;
  reason: string | null;
  cancelledBy: string | null;
  held: { orderNumber: string; chargesAt: Date } | null;
  clearsChargesAt: boolean;
  needsDue: boolean;
  needsCancellable: boolean;
  /** The webhook endpoints that hear of the move (partners' recipientsSql on `purchases`), or NULL. */
  recipients: Prisma.Sql;
  /** Return the purchase's email and its quote's snapshot and address (a hold writes store orders and the copy email, a release restocks). */
  withSnapshot: boolean;
};

/** A purchase as its move left it (the row's columns as `PurchaseRow` names them, and with the snapshot its email and quote). */
export type MovedRow = AnsweredRow & {
  clientId: string;
  personId: string;
  recipients: string[] | null;
  email?: string;
  snapshot?: QuoteSnapshot;
  address?: TShippingAddress;
};

/**
 * The move's one conditional update, guarded by the state table's arrows (and the due time or the
 * cancel deadline when the event needs them); the row as moved when this call moved the purchase.
 * The snapshot and address are read from the purchase's own quote in the same statement (a join
 * kept across owners, ADR 0103: the hold's path makes no statement more for them, and its answer
 * and emails re-read nothing).
 */
export const updatePurchaseStatus = async (tx: Sql, move: PurchaseStatusWrite) => {
  const { held } = move;
  const withSnapshot = move.withSnapshot
    ? Prisma.sql`, email, (SELECT q.snapshot FROM quotes q WHERE q.id = purchases.quote_id) AS snapshot,
      (SELECT q.address FROM quotes q WHERE q.id = purchases.quote_id) AS address`
    : Prisma.empty;
  const [moved] = await tx.$queryRaw<MovedRow[]>`
    UPDATE purchases SET status = ${move.to}::"PurchaseStatus", updated_at = ${move.now}, ${Prisma.raw(move.stampColumn)} = ${move.now},
      charges_at = ${held ? Prisma.sql`${held.chargesAt}` : move.clearsChargesAt ? Prisma.sql`NULL` : Prisma.sql`charges_at`},
      cancel_until = ${held ? Prisma.sql`${held.chargesAt}` : Prisma.sql`cancel_until`},
      order_number = COALESCE(${held?.orderNumber ?? null}, order_number),
      cancelled_by = COALESCE(${move.cancelledBy}, cancelled_by),
      reason = COALESCE(${move.reason}, reason)
    WHERE id = ${move.id} AND status::text = ANY(${[...move.from]}::text[])
      ${move.needsDue ? Prisma.sql`AND charges_at <= ${move.now}` : Prisma.empty}
      ${move.needsCancellable ? Prisma.sql`AND cancel_until > ${move.now}` : Prisma.empty}
    RETURNING ${purchaseRowSql}, client_id AS "clientId", person_id AS "personId", ${move.recipients} AS recipients ${withSnapshot}`;
  return moved;
};

/** Status, reason and cancel deadline (the cancel's answer when its move did not happen); null when none. */
export const findCancelState = (db: Client, id: string) =>
  db.purchase.findUnique({
    where: { id },
    select: { status: true, reason: true, cancelUntil: true },
  });

/** What the cancel page shows of a purchase (besides what it bought); null when none. */
export const findCancelPageView = (db: Client, id: string) =>
  db.purchase.findUnique({
    where: { id },
    select: {
      personId: true,
      clientId: true,
      status: true,
      reason: true,
      orderNumber: true,
      grandTotalCents: true,
      cancelUntil: true,
      chargesAt: true,
      paidAt: true,
      createdAt: true,
    },
  });

/** True when the purchase exists. */
export const purchaseExists = async (db: Client, id: string) =>
  (await db.purchase.count({ where: { id } })) > 0;

/** Status and charge time (the charge job's sleep); null when none. */
export const findChargeTime = (db: Client, id: string) =>
  db.purchase.findUnique({ where: { id }, select: { status: true, chargesAt: true } });

/** What charging reads: status, charge time, and the snapshot of its own quote; null when none. */
export const findChargeablePurchase = async (db: Client, id: string) => {
  const purchase = await db.purchase.findUnique({
    where: { id },
    select: { status: true, chargesAt: true, quote: { select: { snapshot: true } } },
  });
  return purchase && { ...purchase, snapshot: purchase.quote.snapshot as QuoteSnapshot };
};

/** What recording a late answer needs: status, email, total and assistant; null when none. */
export const findAwaitingPurchase = (db: Client, id: string) =>
  db.purchase.findUnique({
    where: { id },
    select: { status: true, email: true, grandTotalCents: true, clientId: true },
  });

/** The summary the ops command prints; throws when none. */
export const readPurchaseSummary = (db: Client, id: string) =>
  db.purchase.findUniqueOrThrow({
    where: { id },
    select: {
      id: true,
      status: true,
      orderNumber: true,
      grandTotalCents: true,
      chargesAt: true,
      cancelUntil: true,
    },
  });

/** Where each of these purchases stands now, by id (what a watch's page says of the purchase it made). */
export const readPurchaseStates = async (db: Client, ids: string[]) =>
  new Map(
    (
      await db.purchase.findMany({
        where: { id: { in: ids } },
        select: { id: true, status: true, reason: true },
      })
    ).map((row) => [row.id, row]),
  );

/** Purchases left `processing` since before `before` (their request stopped), a batch. */
export const listStuckPurchases = (db: Client, options: { before: Date; take: number }) =>
  db.purchase.findMany({
    where: { status: "processing", updatedAt: { lt: options.before } },
    select: { id: true },
    take: options.take,
  });

/**
 * Held purchases due at `now`, and purchases left capturing since before `staleBefore` whose
 * payment may be captured again, earliest charge first, a batch. The payment's state is read
 * through the relation (payments' `captureDueWhere`), one query for the sweep.
 */
export const listDuePurchases = (
  db: Client,
  options: { now: Date; staleBefore: Date; take: number },
) =>
  db.purchase.findMany({
    where: {
      OR: [
        { status: "held", chargesAt: { lte: options.now } },
        // A capture waiting for its next try, or out of tries (capture_failed), is left alone (capture-retries.ts).
        {
          status: "capturing",
          capturingAt: { lt: options.staleBefore },
          payment: { is: { status: { not: "capture_failed" }, ...captureDueWhere(options.now) } },
        },
      ],
    },
    select: { id: true },
    orderBy: { chargesAt: "asc" },
    take: options.take,
  });

type BoughtRow = { snapshot: QuoteSnapshot; address: TShippingAddress; orderNumber: string | null };

/** The summary of a purchase's quote with the stores' default shipping (a purchase never chooses another). */
export const summaryOf = (row: BoughtRow): OrderSummary => orderSummary({ ...row, selections: {} });

/**
 * What the purchase bought (server/core/order-summary.ts): its quote's lines, the stores' default
 * shipping and the ship-to address; undefined when no such purchase. Raw SQL, so the writers of
 * its emails can call it inside their transaction.
 */
export const readWhatWasBought = async (
  sql: Pick<Tx, "$queryRaw">,
  id: string,
): Promise<OrderSummary | undefined> => {
  const [row] = await sql.$queryRaw<
    BoughtRow[]
  >`SELECT q.snapshot, q.address, p.order_number AS "orderNumber"
    FROM purchases p JOIN quotes q ON q.id = p.quote_id WHERE p.id = ${id}`;
  return row && summaryOf(row);
};

/**
 * What an email of the purchase needs, in one statement inside the email's transaction: its
 * address, person and assistant (their ids), order number, total and times, and what it bought.
 * Throws when there is no such purchase (an email is written only for a purchase that moved).
 */
export const readEmailedPurchase = async (sql: Pick<Tx, "$queryRaw">, id: string) => {
  const [row] = await sql.$queryRaw<
    (BoughtRow & {
      id: string;
      email: string;
      personId: string;
      clientId: string;
      grandTotalCents: number;
      chargesAt: Date | null;
      cancelUntil: Date;
    })[]
  >`SELECT p.id, p.email, p.person_id AS "personId", p.client_id AS "clientId",
      p.order_number AS "orderNumber", p.grand_total_cents AS "grandTotalCents",
      p.charges_at AS "chargesAt", p.cancel_until AS "cancelUntil", q.snapshot, q.address
    FROM purchases p JOIN quotes q ON q.id = p.quote_id WHERE p.id = ${id}`;
  if (!row) throw new Error(`no purchase ${id}`);
  return {
    id: row.id,
    email: row.email,
    personId: row.personId,
    clientId: row.clientId,
    orderNumber: row.orderNumber,
    grandTotalCents: row.grandTotalCents,
    chargesAt: row.chargesAt,
    cancelUntil: row.cancelUntil,
    summary: summaryOf(row),
  };
};

/** Sandbox only: a held purchase's charge time and cancel window come now (its charge then runs as the sweep's). */
export const makeHeldPurchaseDueNow = (db: Client, options: { id: string; now: Date }) =>
  db.purchase.updateMany({
    where: { id: options.id, status: "held", chargesAt: { gt: options.now } },
    data: { chargesAt: options.now, cancelUntil: options.now },
  });
