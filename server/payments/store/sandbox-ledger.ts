/**
 * The sandbox processor's ledger (`sandbox_payments`, `sandbox_payment_methods`,
 * `sandbox_processor_requests`), as a remote processor would keep it. Raw SQL on the `pg` pool
 * (docs/adr/0014-raw-sql-on-hot-paths.md): the sandbox answers every purchase's authorize, and
 * Prisma's per-statement CPU there would be ours in the bench, not the processor's (0062, 0074).
 */
import { createHash } from "node:crypto";
import { randomId } from "../../core/ids";
import { Prisma } from "../../generated/prisma/client";
import { rawPool } from "../../platform/db";
import { poolSql, type Sql, sqlTransaction } from "../../platform/sql";

/** A sandbox payment as the processor answers it. */
export type LedgerRow = {
  id: string;
  status: string;
  amountCents: number;
  cardLast4: string | null;
  declineCode: string | null;
  refundedCents: number;
};

/** A sandbox payment's columns as `LedgerRow` names them. */
const rowSql = Prisma.sql`id, status, amount_cents AS "amountCents", card_last4 AS "cardLast4", decline_code AS "declineCode", refunded_cents AS "refundedCents"`;

const hashOf = (request: unknown) =>
  createHash("sha256").update(JSON.stringify(request)).digest("hex");

/** The answer stored under a key, as a repeat gets it; the same key with another request throws. */
const replayOf = <T>(key: string, hash: string, previous: { requestHash: string; response: T }) => {
  if (previous.requestHash !== hash)
    throw new Error(`sandbox processor: idempotency key ${key} reused with another request`);
  return { answer: previous.response, isReplay: true };
};

const readPrevious = async <T>(sql: Sql, key: string) =>
  (
    await sql.$queryRaw<{ requestHash: string; response: T }[]>`
      SELECT request_hash AS "requestHash", response FROM sandbox_processor_requests WHERE idempotency_key = ${key}`
  )[0];

/**
 * Runs `run` once per idempotency key, in one transaction under the key's advisory lock: a repeat
 * gets the stored answer (`isReplay`); the same key with another request throws.
 */
export const answerOnce = <T>(key: string, request: unknown, run: (sql: Sql) => Promise<T>) => {
  const hash = hashOf(request);
  return sqlTransaction(async (sql) => {
    await sql.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
    const previous = await readPrevious<T>(sql, key);
    if (previous) return replayOf(key, hash, previous);
    const answer = await run(sql);
    await sql.$executeRaw`INSERT INTO sandbox_processor_requests (idempotency_key, request_hash, response) VALUES (${key}, ${hash}, ${JSON.stringify(answer)}::jsonb)`;
    return { answer, isReplay: false };
  });
};

/** A new payment with the bank's first answer, as an authorize writes it. */
export type NewLedgerPayment = LedgerRow & {
  idempotencyKey: string;
  method: string;
  paymentMethodId: string | null;
};

/**
 * `answerOnce` for a call that only creates a payment (an authorize), whose answer is known before
 * anything is written: the key's record and the payment in one statement, without a transaction.
 * When the key has a record (a repeat, or a concurrent request with the key: its insert waits for
 * the other's and then writes nothing), neither is written and that record's answer is returned.
 */
export const insertPaymentOnce = async <T>(
  request: unknown,
  payment: NewLedgerPayment,
  answer: T,
) => {
  const key = payment.idempotencyKey;
  const hash = hashOf(request);
  const written = await poolSql.$queryRaw<{ id: string }[]>`
    WITH request AS (
      INSERT INTO sandbox_processor_requests (idempotency_key, request_hash, response)
      VALUES (${key}, ${hash}, ${JSON.stringify(answer)}::jsonb)
      ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key)
    INSERT INTO sandbox_payments (id, idempotency_key, amount_cents, method, status, decline_code, card_last4, payment_method_id)
    SELECT ${payment.id}, idempotency_key, ${payment.amountCents}::int, ${payment.method}, ${payment.status}, ${payment.declineCode},
      ${payment.cardLast4}, ${payment.paymentMethodId}
    FROM request RETURNING id`;
  if (written.length) return { answer, isReplay: false };
  const previous = await readPrevious<T>(poolSql, key);
  if (!previous)
    throw new Error(`sandbox processor: idempotency key ${key} neither new nor stored`);
  return replayOf(key, hash, previous);
};

/** The card number behind a saved method of this customer, or undefined. */
export const findSavedMethod = async (
  sql: Sql,
  options: { paymentMethodId: string; customerId: string },
) =>
  (
    await sql.$queryRaw<{ cardNumber: string; cardLast4: string }[]>`
    SELECT card_number AS "cardNumber", card_last4 AS "cardLast4" FROM sandbox_payment_methods WHERE id = ${options.paymentMethodId} AND customer_id = ${options.customerId}`
  )[0];

/** Saves a card as a method of the customer (a new customer when none is given). */
export const insertSavedMethod = async (
  sql: Sql,
  options: { customerId: string | undefined; cardNumber: string },
) =>
  (
    await sql.$queryRaw<{ id: string; customerId: string; cardLast4: string }[]>`
    INSERT INTO sandbox_payment_methods (id, customer_id, card_number, card_last4) VALUES (${randomId("sbpm_")}, ${options.customerId ?? randomId("sbcus_")}, ${options.cardNumber}, ${options.cardNumber.slice(-4)})
    RETURNING id, customer_id AS "customerId", card_last4 AS "cardLast4"`
  )[0];

export const findLedgerPayment = async (sql: Sql, id: string) =>
  (await sql.$queryRaw<LedgerRow[]>`SELECT ${rowSql} FROM sandbox_payments WHERE id = ${id}`)[0];

/** Sets a payment's status (and decline code, when given). */
export const setLedgerStatus = async (
  sql: Sql,
  options: { id: string; status: string; declineCode: string | null },
) =>
  (
    await sql.$queryRaw<LedgerRow[]>`
    UPDATE sandbox_payments SET status = ${options.status}, decline_code = COALESCE(${options.declineCode}, decline_code),
      captured_at = CASE WHEN ${options.status} = 'captured' THEN COALESCE(captured_at, clock_timestamp()) ELSE captured_at END, updated_at = now()
    WHERE id = ${options.id} RETURNING ${rowSql}`
  )[0];

export const addLedgerRefund = async (sql: Sql, options: { id: string; amountCents: number }) =>
  (
    await sql.$queryRaw<
      LedgerRow[]
    >`UPDATE sandbox_payments SET refunded_cents = refunded_cents + ${options.amountCents}::int, updated_at = now() WHERE id = ${options.id} RETURNING ${rowSql}`
  )[0];

/** A payment by its id or by its authorize key, on the pool: a lookup needs no transaction. */
export const lookUpLedgerPayment = async (
  input: { paymentId: string } | { authorizeKey: string },
) => {
  const statement =
    "paymentId" in input
      ? Prisma.sql`SELECT ${rowSql} FROM sandbox_payments WHERE id = ${input.paymentId}`
      : Prisma.sql`SELECT ${rowSql} FROM sandbox_payments WHERE idempotency_key = ${input.authorizeKey}`;
  const [row] = (await rawPool().query<LedgerRow>(statement.text, statement.values as unknown[]))
    .rows;
  return row;
};

/**
 * The bank's pending answer to an authorize (the late test card) turns out a decline: the hold of
 * that key, if still authorized, never was (sandbox helper POST /sandbox/purchases/{id}/resolve).
 */
export const declinePendingAuthorize = (sql: Sql, authorizeKey: string) =>
  sql.$executeRaw`
    UPDATE sandbox_payments SET status = 'declined', decline_code = 'card_declined', updated_at = now() WHERE idempotency_key = ${authorizeKey} AND status = 'authorized'`;

/** A sandbox transfer to a connected account, as the processor answers it. */
type TransferRow = { id: string; destination: string; amountCents: number };

/** What has been transferred from a payment so far, less what was reversed, under that payment's row lock (transfers of one charge never exceed it). */
export const transferredFrom = async (sql: Sql, paymentId: string) => {
  const [row] = await sql.$queryRaw<{ amountCents: number; status: string; sent: number }[]>`
    SELECT p.amount_cents AS "amountCents", p.status,
      (SELECT COALESCE(sum(t.amount_cents), 0)::int - COALESCE((SELECT sum(r.amount_cents) FROM sandbox_transfer_reversals r
         JOIN sandbox_transfers rt ON rt.id = r.transfer_id WHERE rt.source_payment_id = p.id), 0)::int
        FROM sandbox_transfers t WHERE t.source_payment_id = p.id) AS sent
    FROM sandbox_payments p WHERE p.id = ${paymentId} FOR UPDATE`;
  return row;
};

export const insertLedgerTransfer = async (
  sql: Sql,
  transfer: {
    destination: string;
    amountCents: number;
    sourcePaymentId: string | null;
    transferGroup: string;
    metadata: Record<string, string>;
  },
) =>
  (
    await sql.$queryRaw<TransferRow[]>`
    INSERT INTO sandbox_transfers (id, destination, amount_cents, source_payment_id, transfer_group, metadata)
    VALUES (${randomId("sbtr_")}, ${transfer.destination}, ${transfer.amountCents}::int, ${transfer.sourcePaymentId}, ${transfer.transferGroup}, ${JSON.stringify(transfer.metadata)}::jsonb)
    RETURNING id, destination, amount_cents AS "amountCents"`
  )[0];

export const insertLedgerRefund = async (
  sql: Sql,
  refund: { paymentId: string; amountCents: number; metadata: Record<string, string> },
) =>
  (
    await sql.$queryRaw<{ id: string }[]>`
    INSERT INTO sandbox_refunds (id, payment_id, amount_cents, metadata)
    VALUES (${randomId("sbre_")}, ${refund.paymentId}, ${refund.amountCents}::int, ${JSON.stringify(refund.metadata)}::jsonb)
    RETURNING id`
  )[0].id;

/** A payment's refunds, oldest first, on the pool (`failedAt` set for one the sandbox's bank sent back). */
export const listLedgerRefunds = async (paymentId: string) => {
  const statement = Prisma.sql`SELECT id, amount_cents AS "amountCents", metadata, failed_at AS "failedAt", failure_reason AS "failureReason" FROM sandbox_refunds WHERE payment_id = ${paymentId} ORDER BY created_at, id`;
  return (
    await rawPool().query<{
      id: string;
      amountCents: number;
      metadata: Record<string, string>;
      failedAt: Date | null;
      failureReason: string | null;
    }>(statement.text, statement.values as unknown[])
  ).rows;
};

/**
 * The sandbox's bank sends a refund back after it succeeded, as a closed card's bank does at
 * Stripe: the refund fails with `reason`, and its amount returns to the payment (refundable again)
 * and to the balance. Once: the payment's id, or null when it was already sent back or is unknown.
 */
export const sendBackLedgerRefund = async (
  sql: Sql,
  options: { id: string; reason: string; now: Date },
) => {
  const [refund] = await sql.$queryRaw<{ paymentId: string; amountCents: number }[]>`
    UPDATE sandbox_refunds SET failed_at = ${options.now}, failure_reason = ${options.reason}
    WHERE id = ${options.id} AND failed_at IS NULL
    RETURNING payment_id AS "paymentId", amount_cents AS "amountCents"`;
  if (!refund) return null;
  await sql.$executeRaw`
    UPDATE sandbox_payments SET refunded_cents = refunded_cents - ${refund.amountCents}::int, updated_at = now()
    WHERE id = ${refund.paymentId}`;
  return refund.paymentId;
};

/** One row found by a statement of the pool, or null. */
const firstRow = async (statement: Prisma.Sql) =>
  (await rawPool().query<{ id: string }>(statement.text, statement.values as unknown[])).rows[0] ??
  null;

/** The sandbox transfer made for our ledger row in its group (its metadata names the row), or null. */
export const findLedgerTransferOf = (options: { ledgerEntryId: string; transferGroup: string }) =>
  firstRow(
    Prisma.sql`SELECT id FROM sandbox_transfers WHERE transfer_group = ${options.transferGroup} AND metadata->>'ledger_entry' = ${options.ledgerEntryId} LIMIT 1`,
  );

/** The sandbox reversal of `transferId` made for our ledger row, or null. */
export const findLedgerReversalOf = (options: { ledgerEntryId: string; transferId: string }) =>
  firstRow(
    Prisma.sql`SELECT id FROM sandbox_transfer_reversals WHERE transfer_id = ${options.transferId} AND metadata->>'ledger_entry' = ${options.ledgerEntryId} LIMIT 1`,
  );

/** A transfer and what has been reversed of it, under its row lock. */
export const findTransferForReversal = async (sql: Sql, transferId: string) =>
  (
    await sql.$queryRaw<{ amountCents: number; reversed: number }[]>`
    SELECT t.amount_cents AS "amountCents",
      (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM sandbox_transfer_reversals r WHERE r.transfer_id = t.id) AS reversed
    FROM sandbox_transfers t WHERE t.id = ${transferId} FOR UPDATE`
  )[0];

export const insertTransferReversal = async (
  sql: Sql,
  reversal: { transferId: string; amountCents: number; metadata: Record<string, string> },
) =>
  (
    await sql.$queryRaw<{ id: string; amountCents: number }[]>`
    INSERT INTO sandbox_transfer_reversals (id, transfer_id, amount_cents, metadata)
    VALUES (${randomId("sbtrr_")}, ${reversal.transferId}, ${reversal.amountCents}::int, ${JSON.stringify(reversal.metadata)}::jsonb)
    RETURNING id, amount_cents AS "amountCents"`
  )[0];

/**
 * The sandbox processor's balance transactions in [from, to): its captures, refunds, transfers and
 * reversals, as Stripe would list them (a capture and a reversal add; a refund and a transfer take away;
 * a refund the bank sent back adds its amount again, under `<refund>:failed` as the Stripe adapter names it).
 */
export const listLedgerBalance = async (from: Date, to: Date) => {
  const statement = Prisma.sql`
    SELECT 'bt_' || id AS id, 'charge' AS type, id AS "objectId", amount_cents AS "amountCents", captured_at AS "createdAt"
      FROM sandbox_payments WHERE captured_at >= ${from} AND captured_at < ${to}
    UNION ALL SELECT 'bt_' || id, 'refund', id, -amount_cents, created_at FROM sandbox_refunds WHERE created_at >= ${from} AND created_at < ${to}
    UNION ALL SELECT 'bt_' || id || '_failed', 'refund', id || ':failed', amount_cents, failed_at FROM sandbox_refunds WHERE failed_at >= ${from} AND failed_at < ${to}
    UNION ALL SELECT 'bt_' || id, 'transfer', id, -amount_cents, created_at FROM sandbox_transfers WHERE created_at >= ${from} AND created_at < ${to}
    UNION ALL SELECT 'bt_' || id, 'transfer_reversal', id, amount_cents, created_at FROM sandbox_transfer_reversals WHERE created_at >= ${from} AND created_at < ${to}
    UNION ALL SELECT 'bt_' || id, 'dispute', id, -amount_cents, created_at FROM sandbox_disputes WHERE created_at >= ${from} AND created_at < ${to}
    UNION ALL SELECT 'bt_' || id || '_won', 'dispute', id || ':reinstated', amount_cents, closed_at FROM sandbox_disputes
      WHERE status = 'won' AND closed_at >= ${from} AND closed_at < ${to}
    ORDER BY "createdAt", id`;
  return (
    await rawPool().query<{
      id: string;
      type: "charge" | "refund" | "transfer" | "transfer_reversal" | "dispute";
      objectId: string;
      amountCents: number;
      createdAt: Date;
    }>(statement.text, statement.values as unknown[])
  ).rows;
};

type SandboxDisputeRow = {
  id: string;
  paymentId: string;
  amountCents: number;
  reason: string;
  status: string;
  evidenceDueBy: Date;
};

const disputeColumns = Prisma.sql`id, payment_id AS "paymentId", amount_cents AS "amountCents", reason, status, evidence_due_by AS "evidenceDueBy"`;

/** A cardholder disputes a captured sandbox payment (`ops sandbox:dispute`): evidence due in 7 days. */
export const openLedgerDispute = async (
  sql: Sql,
  dispute: { paymentId: string; amountCents: number; reason: string; now: Date },
) =>
  (
    await sql.$queryRaw<SandboxDisputeRow[]>`
    INSERT INTO sandbox_disputes (id, payment_id, amount_cents, reason, status, evidence_due_by, created_at)
    VALUES (${randomId("sbdp_")}, ${dispute.paymentId}, ${dispute.amountCents}::int, ${dispute.reason}, 'needs_response',
      ${new Date(dispute.now.getTime() + 7 * 86_400_000)}, ${dispute.now})
    RETURNING ${disputeColumns}`
  )[0];

/** The bank decides a sandbox dispute. */
export const closeLedgerDispute = async (
  sql: Sql,
  dispute: { id: string; outcome: "won" | "lost"; now: Date },
) =>
  (
    await sql.$queryRaw<SandboxDisputeRow[]>`
    UPDATE sandbox_disputes SET status = ${dispute.outcome}, closed_at = ${dispute.now}
    WHERE id = ${dispute.id} AND closed_at IS NULL RETURNING ${disputeColumns}`
  )[0];

export const findLedgerDispute = async (id: string) => {
  const statement = Prisma.sql`SELECT ${disputeColumns} FROM sandbox_disputes WHERE id = ${id}`;
  return (await rawPool().query<SandboxDisputeRow>(statement.text, statement.values as unknown[]))
    .rows[0];
};
