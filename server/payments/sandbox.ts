/**
 * The sandbox (test-mode) processor. It keeps its own ledger in the sandbox_* tables so it behaves
 * like a remote processor shared by every instance: each request is answered once per idempotency
 * key (the same key with another request is an error, as at Stripe), and payments move
 * requires_action -> authorized -> captured, or to declined or voided. Tests count holds, captures,
 * releases and refunds in `sandbox_payments`. The `answersLate` card places its hold but the first
 * answer never arrives (UnknownOutcomeError); `retrieve` then shows the hold. The `answersSlowly`
 * card places its hold and answers only after `slowBankAnswerMs` (the sandbox's own transaction is
 * over by then: the wait is the network's, not a lock's).
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { randomId } from "../core/ids";
import { rawPool } from "../platform/db";
import { Prisma } from "../generated/prisma/client";
import { type Sql, sqlTransaction } from "../platform/sql";
import {
  type PaymentMethod,
  type PaymentProvider,
  type ProcessorPayment,
  UnknownOutcomeError,
} from "./provider";
import { sandboxCardOutcome, slowBankAnswerMs, testCards } from "./sandbox-cards";

type Row = {
  id: string;
  status: string;
  amountCents: number;
  cardLast4: string | null;
  declineCode: string | null;
  refundedCents: number;
};

const toPayment = (row: Row): ProcessorPayment => ({
  id: row.id,
  status: row.status as ProcessorPayment["status"],
  amountCents: row.amountCents,
  cardLast4: row.cardLast4,
  declineCode: row.declineCode,
  refundedCents: row.refundedCents,
});

/** A sandbox payment's columns as `Row` names them. */
const rowSql = Prisma.sql`id, status, amount_cents AS "amountCents", card_last4 AS "cardLast4", decline_code AS "declineCode", refunded_cents AS "refundedCents"`;

/** What the bank answers for a method: a saved card answers as its number, except that off-session nobody can authenticate. */
const outcomeOf = async (sql: Sql, method: PaymentMethod) => {
  if (method.type === "link")
    return {
      status: "authorized" as const,
      declineCode: null,
      cardLast4: "4242",
      cardNumber: testCards.succeeds,
    };
  if (method.type === "card")
    return {
      ...sandboxCardOutcome(method.number),
      cardLast4: method.number.slice(-4),
      cardNumber: method.number,
    };
  const [saved] = await sql.$queryRaw<{ cardNumber: string; cardLast4: string }[]>`
    SELECT card_number AS "cardNumber", card_last4 AS "cardLast4" FROM sandbox_payment_methods WHERE id = ${method.paymentMethodId} AND customer_id = ${method.customerId}`;
  if (!saved)
    return {
      status: "declined" as const,
      declineCode: "payment_method_not_found",
      cardLast4: null,
      cardNumber: "",
    };
  const outcome = sandboxCardOutcome(saved.cardNumber);
  return {
    ...outcome,
    declineCode:
      outcome.status === "requires_action" ? "authentication_required" : outcome.declineCode,
    cardLast4: saved.cardLast4,
    cardNumber: saved.cardNumber,
  };
};

/** Answers once per key: a repeat gets the stored answer; the same key with another request throws. */
const once = <T>(key: string, request: unknown, run: (sql: Sql) => Promise<T>) => {
  const hash = createHash("sha256").update(JSON.stringify(request)).digest("hex");
  return sqlTransaction(async (sql) => {
    await sql.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
    const [previous] = await sql.$queryRaw<{ requestHash: string; response: T }[]>`
      SELECT request_hash AS "requestHash", response FROM sandbox_processor_requests WHERE idempotency_key = ${key}`;
    if (previous) {
      if (previous.requestHash !== hash)
        throw new Error(`sandbox processor: idempotency key ${key} reused with another request`);
      return { answer: previous.response, isReplay: true };
    }
    const answer = await run(sql);
    await sql.$executeRaw`INSERT INTO sandbox_processor_requests (idempotency_key, request_hash, response) VALUES (${key}, ${hash}, ${JSON.stringify(answer)}::jsonb)`;
    return { answer, isReplay: false };
  });
};
const answer = async <T>(key: string, request: unknown, run: (sql: Sql) => Promise<T>) =>
  (await once(key, request, run)).answer;

const findPayment = async (sql: Sql, id: string) =>
  (await sql.$queryRaw<Row[]>`SELECT ${rowSql} FROM sandbox_payments WHERE id = ${id}`)[0];

/** Moves a payment from one of `from` to `to`; any other current state is answered as it is. */
const move = async (
  sql: Sql,
  id: string,
  from: string[],
  to: string,
  declineCode: string | null = null,
) => {
  const row = await findPayment(sql, id);
  if (!row) throw new Error(`sandbox processor: no payment ${id}`);
  if (!from.includes(row.status)) return toPayment(row);
  const [moved] = await sql.$queryRaw<Row[]>`
    UPDATE sandbox_payments SET status = ${to}, decline_code = COALESCE(${declineCode}, decline_code), updated_at = now() WHERE id = ${id} RETURNING ${rowSql}`;
  return toPayment(moved);
};

/**
 * The sandbox processor, on raw SQL transactions (server/platform/sql.ts): it answers every purchase's
 * authorize, and in a real deployment that cost would be the processor's, not ours.
 */
export const sandboxProvider = (): PaymentProvider => ({
  name: "sandbox",
  lookupLagMs: 0,
  authorize: async ({ idempotencyKey, amountCents, method, description }) => {
    const request = {
      op: "authorize",
      amountCents,
      method: method.type === "card" ? { ...method, cvc: undefined } : method,
      description,
    };
    const { answer: payment, isReplay } = await once(idempotencyKey, request, async (sql) => {
      const outcome = await outcomeOf(sql, method);
      const [row] = await sql.$queryRaw<Row[]>`
        INSERT INTO sandbox_payments (id, idempotency_key, amount_cents, method, status, decline_code, card_last4, payment_method_id)
        VALUES (${randomId("sbpi_")}, ${idempotencyKey}, ${amountCents}::int, ${method.type}, ${outcome.status}, ${outcome.declineCode}, ${outcome.cardLast4},
          ${method.type === "saved" ? method.paymentMethodId : null})
        RETURNING ${rowSql}`;
      return {
        ...toPayment(row),
        isLate: outcome.cardNumber === testCards.answersLate,
        isSlow: outcome.cardNumber === testCards.answersSlowly,
      };
    });
    // The hold exists, but this first answer is lost on the way back.
    if (payment.isLate && !isReplay)
      throw new UnknownOutcomeError("sandbox processor: the bank did not answer in time");
    if (payment.isSlow && !isReplay) await sleep(slowBankAnswerMs);
    const { isLate: _isLate, isSlow: _isSlow, ...result } = payment;
    return result;
  },
  createIntent: () =>
    Promise.reject(
      new Error(
        "sandbox processor: the hosted page takes the sandbox's test cards with its own form; there is no browser-side intent",
      ),
    ),
  confirm: ({ idempotencyKey, paymentId, authenticated }) =>
    answer(idempotencyKey, { op: "confirm", paymentId, authenticated }, (sql) =>
      move(
        sql,
        paymentId,
        ["requires_action"],
        authenticated ? "authorized" : "declined",
        authenticated ? null : "authentication_failed",
      ),
    ),
  capture: ({ idempotencyKey, paymentId }) =>
    answer(idempotencyKey, { op: "capture", paymentId }, (sql) =>
      move(sql, paymentId, ["authorized"], "captured"),
    ),
  release: ({ idempotencyKey, paymentId }) =>
    answer(idempotencyKey, { op: "release", paymentId }, (sql) =>
      move(sql, paymentId, ["authorized", "requires_action"], "voided"),
    ),
  refund: ({ idempotencyKey, paymentId, amountCents }) =>
    answer(idempotencyKey, { op: "refund", paymentId, amountCents }, async (sql) => {
      const row = await findPayment(sql, paymentId);
      if (row?.status !== "captured")
        throw new Error(`sandbox processor: payment ${paymentId} is not captured`);
      const amount = amountCents ?? row.amountCents - row.refundedCents;
      if (amount <= 0 || row.refundedCents + amount > row.amountCents)
        throw new Error(
          `sandbox processor: refund of ${amount} exceeds what is left of ${paymentId}`,
        );
      const [refunded] = await sql.$queryRaw<
        Row[]
      >`UPDATE sandbox_payments SET refunded_cents = refunded_cents + ${amount}::int, updated_at = now() WHERE id = ${paymentId} RETURNING ${rowSql}`;
      return toPayment(refunded);
    }),
  retrieve: async (input) => {
    // The sandbox's columns once (rowSql), run on the pool: a lookup needs no transaction.
    const statement =
      "paymentId" in input
        ? Prisma.sql`SELECT ${rowSql} FROM sandbox_payments WHERE id = ${input.paymentId}`
        : Prisma.sql`SELECT ${rowSql} FROM sandbox_payments WHERE idempotency_key = ${input.authorizeKey}`;
    const [row] = (await rawPool().query<Row>(statement.text, statement.values as unknown[])).rows;
    return row ? toPayment(row) : null;
  },
  startCardSetup: () =>
    Promise.reject(
      new Error(
        "sandbox processor: /account/card saves the sandbox's test cards with its own form",
      ),
    ),
  retrieveCardSetup: () => Promise.resolve(null),
  // The sandbox's saved methods stay in its ledger; nothing charges them once we forget them.
  detachMethod: () => Promise.resolve(),
  saveMethod: async ({ idempotencyKey, card, customerId }) => {
    const saved = await answer(
      idempotencyKey,
      { op: "save", number: card.number, customerId },
      async (sql) => {
        const [method] = await sql.$queryRaw<
          { id: string; customerId: string; cardLast4: string }[]
        >`
        INSERT INTO sandbox_payment_methods (id, customer_id, card_number, card_last4) VALUES (${randomId("sbpm_")}, ${customerId ?? randomId("sbcus_")}, ${card.number}, ${card.number.slice(-4)})
        RETURNING id, customer_id AS "customerId", card_last4 AS "cardLast4"`;
        return method;
      },
    );
    return { customerId: saved.customerId, paymentMethodId: saved.id, cardLast4: saved.cardLast4 };
  },
});
